package io.github.limiter.tck.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of six real redis-server processes on 127.0.0.1: three masters with one replica
 * each, set up as {@code redis-cli --cluster create} would but over the harness's own client, and a
 * node timeout of 2 s so that a killed master is replaced within seconds. {@link #start} returns
 * once every slot is served and every replica has finished its first sync ({@code
 * master_link_status:up}), so that a failover test can kill a master right away.
 */
public final class RedisCluster implements AutoCloseable {

  private static final int MASTERS = 3;
  private static final int NODES = 2 * MASTERS;
  private static final int SLOTS = 16_384;

  private final List<RedisServer> nodes = new ArrayList<>();

  private RedisCluster() {}

  /**
   * Starts the six nodes and creates the cluster.
   *
   * @param name names the nodes' directories: {@code <name>-0} to {@code <name>-5}
   * @param extraArgs more redis-server options for every node
   * @throws IllegalStateException if the cluster is not healthy within 30 s; nothing is left
   *     running
   */
  public static RedisCluster start(String name, String... extraArgs) {
    RedisCluster cluster = new RedisCluster();
    try {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "--cluster-enabled",
                  "yes",
                  "--cluster-node-timeout",
                  "2000",
                  "--cluster-config-file",
                  "nodes.conf"));
      args.addAll(List.of(extraArgs));
      for (int i = 0; i < NODES; i++) {
        cluster.nodes.add(RedisServer.start(name + "-" + i, args.toArray(String[]::new)));
      }
      cluster.create();
      cluster.await(Duration.ofSeconds(30), MASTERS);
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw new IllegalStateException("cannot start a Redis Cluster '" + name + "'", e);
    }
  }

  /**
   * What {@code redis-cli --cluster create --cluster-replicas 1} does, over the harness's own
   * client: distinct config epochs, an even split of the slots over the masters, MEET, then one
   * replica for each master.
   */
  private void create() {
    for (int i = 0; i < NODES; i++) {
      // Distinct epochs from the start spare the cluster resolving collisions after MEET.
      nodes.get(i).call("CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(i + 1));
    }
    for (int m = 0; m < MASTERS; m++) {
      List<String> addSlots = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
      for (int slot = SLOTS * m / MASTERS; slot < SLOTS * (m + 1) / MASTERS; slot++) {
        addSlots.add(Integer.toString(slot));
      }
      nodes.get(m).call(addSlots.toArray(String[]::new));
    }
    RedisServer first = nodes.get(0);
    for (RedisServer node : nodes.subList(1, NODES)) {
      first.call("CLUSTER", "MEET", node.host(), Integer.toString(node.port()));
    }
    awaitAllKnown(Duration.ofSeconds(10));
    for (int r = MASTERS; r < NODES; r++) {
      String masterId = (String) nodes.get(r - MASTERS).call("CLUSTER", "MYID");
      nodes.get(r).call("CLUSTER", "REPLICATE", masterId);
    }
  }

  /** Waits until every node lists all six nodes, none of them still in handshake. */
  private void awaitAllKnown(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (RedisServer node : nodes) {
      while (true) {
        List<String> known =
            ((String) node.call("CLUSTER", "NODES"))
                .lines()
                .filter(
                    line ->
                        !line.isBlank() && !line.contains("handshake") && !line.contains("noaddr"))
                .toList();
        if (known.size() == NODES) {
          break;
        }
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException(
              node
                  + " knows "
                  + known.size()
                  + " of "
                  + NODES
                  + " nodes after "
                  + timeout
                  + ": "
                  + known);
        }
        Pause.millis(50);
      }
    }
  }

  /**
   * Waits until every live node reports {@code cluster_state:ok} with all 16384 slots served, and
   * every live replica's link to its master is up: e.g. after a failover, before the next one.
   *
   * @throws IllegalStateException if that does not happen within {@code timeout}
   */
  public void awaitHealthy(Duration timeout) {
    await(timeout, 0);
  }

  private void await(Duration timeout, int replicas) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String last = unhealthy(replicas);
      if (last.isEmpty()) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("cluster not healthy within " + timeout + ": " + last);
      }
      Pause.millis(100);
    }
  }

  /** What is not yet healthy, or empty. */
  private String unhealthy(int replicasExpected) {
    int replicas = 0;
    for (RedisServer node : live()) {
      try {
        String info = (String) node.call("CLUSTER", "INFO");
        if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:16384")) {
          return node + " reports " + info.lines().limit(3).collect(Collectors.joining(" "));
        }
        // A replica that has not finished its first sync cannot take over from its master.
        if (node.info("replication", "role").equals("slave")) {
          if (!node.info("replication", "master_link_status").equals("up")) {
            return node + " is a replica whose link to its master is not up";
          }
          replicas++;
        }
      } catch (RuntimeException e) {
        return node + ": " + e.getMessage();
      }
    }
    return replicas >= replicasExpected
        ? ""
        : replicas + " of " + replicasExpected + " replicas in sync";
  }

  /** The six nodes, dead or alive, in start order. */
  public List<RedisServer> nodes() {
    return List.copyOf(nodes);
  }

  /** The nodes that answer PING now. */
  public List<RedisServer> live() {
    return nodes.stream().filter(RedisServer::answersPing).collect(Collectors.toList());
  }

  /** Every node as {@code host:port}, comma-separated: seeds for a cluster client. */
  public String seedList() {
    return nodes.stream().map(n -> n.host() + ":" + n.port()).collect(Collectors.joining(","));
  }

  /** The hash slot of {@code key}, as the cluster computes it (hash tags included). */
  public long slotOf(String key) {
    List<RedisServer> live = live();
    if (live.isEmpty()) {
      throw new IllegalStateException("no live node to ask for the slot of '" + key + "'");
    }
    return (Long) live.get(0).call("CLUSTER", "KEYSLOT", key);
  }

  /**
   * The live master that serves the slot of {@code key}, by its own account.
   *
   * @throws IllegalStateException if no live master claims it (e.g. during a failover)
   */
  public RedisServer masterOf(String key) {
    long slot = slotOf(key);
    for (RedisServer node : live()) {
      if (role(node).equals("master")
          && ownSlots(node).stream().anyMatch(r -> r[0] <= slot && slot <= r[1])) {
        return node;
      }
    }
    throw new IllegalStateException("no live master for slot " + slot + " of '" + key + "'");
  }

  /** The live nodes that replicate {@code master}. */
  public List<RedisServer> replicasOf(RedisServer master) {
    List<RedisServer> replicas = new ArrayList<>();
    for (RedisServer node : live()) {
      if (node == master) {
        continue;
      }
      // ROLE of a replica: [slave, master host, master port, state, offset]
      List<?> role = (List<?>) node.call("ROLE");
      if (role.get(0).equals("slave") && ((Long) role.get(2)).intValue() == master.port()) {
        replicas.add(node);
      }
    }
    return replicas;
  }

  private static String role(RedisServer node) {
    return (String) ((List<?>) node.call("ROLE")).get(0);
  }

  /** The slot ranges {@code [from, to]} that {@code node} says it serves, from CLUSTER NODES. */
  private static List<long[]> ownSlots(RedisServer node) {
    List<long[]> ranges = new ArrayList<>();
    for (String line : ((String) node.call("CLUSTER", "NODES")).split("\n")) {
      String[] fields = line.trim().split(" ");
      if (fields.length < 3 || !fields[2].contains("myself")) {
        continue;
      }
      for (int i = 8; i < fields.length; i++) {
        if (fields[i].startsWith("[")) {
          continue; // a slot being migrated or imported
        }
        String[] range = fields[i].split("-");
        long from = Long.parseLong(range[0]);
        ranges.add(new long[] {from, range.length > 1 ? Long.parseLong(range[1]) : from});
      }
    }
    return ranges;
  }

  /** Stops every node by its PID. */
  @Override
  public void close() {
    for (RedisServer node : nodes) {
      node.close();
    }
  }

  @Override
  public String toString() {
    return "Redis Cluster " + seedList();
  }
}
