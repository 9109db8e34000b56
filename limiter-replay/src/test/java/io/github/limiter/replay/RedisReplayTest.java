package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The article's tables through a real redis-server, with the trace's time passed to the scripts:
 * the same decisions as in memory, and exactly one successful script call per decision.
 */
class RedisReplayTest {

  private static Process server;
  private static int port;

  @BeforeAll
  static void startRedis() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Path dir = Files.createDirectories(Path.of("target", "redis-" + port));
    server = new ProcessBuilder("redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(port),
        "--save", "", "--appendonly", "no", "--dir", dir.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
    for (int attempt = 0; ; attempt++) {
      try (Jedis jedis = new Jedis("127.0.0.1", port)) {
        if ("PONG".equals(jedis.ping())) {
          return;
        }
      } catch (RuntimeException e) {
        if (attempt > 100) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  @AfterAll
  static void stopRedis() throws InterruptedException {
    server.destroy();
    server.waitFor();
  }

  static final List<String[]> CASES = List.of(
      new String[] {"pattern-a-poisson.txt", "fixed-window", "--limit", "10", "--window", "1"},
      new String[] {"pattern-a-poisson.txt", "sliding-window-counter", "--limit", "10", "--window", "1"},
      new String[] {"pattern-a-poisson.txt", "sliding-window-log", "--limit", "10", "--window", "1"},
      new String[] {"pattern-a-poisson.txt", "token-bucket", "--rate", "10", "--capacity", "20"},
      new String[] {"pattern-a-poisson.txt", "leaky-bucket", "--rate", "10", "--capacity", "20"},
      new String[] {"pattern-b-burst.txt", "fixed-window", "--limit", "10", "--window", "1"},
      new String[] {"pattern-b-burst.txt", "sliding-window-counter", "--limit", "10", "--window", "1"},
      new String[] {"pattern-b-burst.txt", "token-bucket", "--rate", "10", "--capacity", "20"},
      new String[] {"pattern-b-burst.txt", "leaky-bucket", "--rate", "10", "--capacity", "20"},
      new String[] {"pattern-c-boundary.txt", "fixed-window", "--limit", "10", "--window", "1"},
      new String[] {"pattern-c-boundary.txt", "sliding-window-counter", "--limit", "10", "--window", "1"},
      new String[] {"pattern-c-boundary.txt", "token-bucket", "--rate", "10", "--capacity", "20", "--initial", "0"},
      new String[] {"pattern-c-boundary.txt", "leaky-bucket", "--rate", "10", "--capacity", "20"});

  @Test
  void everyTableDecidesThroughRedisExactlyAsInMemory_withOneScriptCallPerDecision() {
    long decisions = 0;
    long before = successfulScriptCalls();
    for (String[] c : CASES) {
      String[] params = java.util.Arrays.copyOfRange(c, 2, c.length);
      List<String> memory = ArticleTablesTest.decisions(c[0], c[1], params);
      List<String> redis = ArticleTablesTest.run(withRedis(
          ArticleTablesTest.concat(new String[] {"--decisions"}, c[1], params, c[0])));
      assertThat(redis).as(String.join(" ", c)).isEqualTo(memory);
      decisions += memory.size();
    }
    assertThat(successfulScriptCalls() - before).isEqualTo(decisions);
  }

  @Test
  void theFiguresHoldThroughRedis() {
    List<String> burst = ArticleTablesTest.run(withRedis(ArticleTablesTest.concat(new String[0], "leaky-bucket",
        new String[] {"--rate", "10", "--capacity", "20"}, "pattern-b-burst.txt")));
    assertThat(burst).contains("departures from 5.100 s to 7.100 s", "requests=30 allowed=21 rejected=9");
    List<String> attack = ArticleTablesTest.run(withRedis(ArticleTablesTest.concat(new String[] {"--decisions"},
        "sliding-window-counter", new String[] {"--limit", "10", "--window", "1"}, "pattern-c-boundary.txt")));
    assertThat(ArticleTablesTest.admittedInAttack(attack)).isEqualTo(11);
  }

  private static String[] withRedis(String[] args) {
    List<String> all = new ArrayList<>(List.of("--store", "redis", "--redis-url", "redis://127.0.0.1:" + port));
    all.addAll(List.of(args));
    return all.toArray(String[]::new);
  }

  /** EVALSHA and EVAL calls that did not fail: a NOSCRIPT retry counts its failed attempt apart. */
  private static long successfulScriptCalls() {
    try (Jedis jedis = new Jedis("127.0.0.1", port)) {
      Map<String, Long> stats = new TreeMap<>();
      for (String line : jedis.info("commandstats").split("\r\n")) {
        if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
          for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
            String[] kv = field.split("=");
            stats.merge(kv[0], (long) Double.parseDouble(kv[1]), Long::sum);
          }
        }
      }
      return stats.getOrDefault("calls", 0L) - stats.getOrDefault("failed_calls", 0L)
          - stats.getOrDefault("rejected_calls", 0L);
    }
  }
}
