package io.github.limiter.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/** Six real redis-server processes as a cluster: three masters, three replicas. */
final class RedisCluster implements AutoCloseable {

  private final List<RedisServer> nodes = new ArrayList<>();

  private RedisCluster() {}

  static RedisCluster start(String name) {
    RedisCluster cluster = new RedisCluster();
    try {
      for (int i = 0; i < 6; i++) {
        cluster.nodes.add(RedisServer.start(name + "-" + i,
            "--cluster-enabled", "yes", "--cluster-node-timeout", "2000",
            "--cluster-config-file", "nodes.conf"));
      }
      List<String> command = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
      for (RedisServer node : cluster.nodes) {
        command.add("127.0.0.1:" + node.port());
      }
      command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
      Process create = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(create.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!create.waitFor(60, TimeUnit.SECONDS) || create.exitValue() != 0) {
        throw new IllegalStateException("redis-cli --cluster create failed:\n" + output);
      }
      cluster.awaitHealthy(Duration.ofSeconds(30));
      return cluster;
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw new IllegalStateException("cannot start a Redis Cluster", e);
    } catch (InterruptedException e) {
      cluster.close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits until every live node reports cluster_state:ok and all slots covered. */
  void awaitHealthy(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      boolean ok = true;
      for (RedisServer node : live()) {
        try (Jedis jedis = node.jedis()) {
          String info = jedis.clusterInfo();
          ok &= info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384");
          // A replica that has not finished its first sync cannot take over from its master.
          String replication = jedis.info("replication");
          ok &= replication.contains("role:master") || replication.contains("master_link_status:up");
        } catch (RuntimeException e) {
          ok = false;
        }
      }
      if (ok) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("cluster not healthy within " + timeout);
      }
      RedisServer.pause(100);
    }
  }

  List<RedisServer> live() {
    return nodes.stream().filter(RedisServer::answersPing).collect(Collectors.toList());
  }

  Set<HostAndPort> seeds() {
    Set<HostAndPort> seeds = new LinkedHashSet<>();
    for (RedisServer node : nodes) {
      seeds.add(new HostAndPort("127.0.0.1", node.port()));
    }
    return seeds;
  }

  String seedList() {
    return seeds().stream().map(h -> h.getHost() + ":" + h.getPort()).collect(Collectors.joining(","));
  }

  /** The live node that is master of the slot of {@code key}. */
  RedisServer masterOf(String key) {
    int slot = JedisClusterCRC16.getSlot(key);
    for (RedisServer node : live()) {
      try (Jedis jedis = node.jedis()) {
        String role = jedis.role().get(0).toString();
        if (!role.equals("master")) {
          continue;
        }
        for (String line : jedis.clusterNodes().split("\n")) {
          String[] f = line.split(" ");
          if (f[2].contains("myself")) {
            for (int i = 8; i < f.length; i++) {
              String[] range = f[i].split("-");
              if (range[0].startsWith("[")) {
                continue;
              }
              int from = Integer.parseInt(range[0]);
              int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
              if (slot >= from && slot <= to) {
                return node;
              }
            }
          }
        }
      }
    }
    throw new IllegalStateException("no live master for slot " + slot);
  }

  /** The live replicas of {@code master}. */
  List<RedisServer> replicasOf(RedisServer master) {
    List<RedisServer> replicas = new ArrayList<>();
    for (RedisServer node : live()) {
      if (node == master) {
        continue;
      }
      try (Jedis jedis = node.jedis()) {
        List<Object> role = jedis.role();
        if (role.get(0).toString().equals("slave") && ((Number) role.get(2)).intValue() == master.port()) {
          replicas.add(node);
        }
      }
    }
    return replicas;
  }

  @Override
  public void close() {
    for (RedisServer node : nodes) {
      node.close();
    }
  }
}
