package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.redis.RedisServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The article's tables through a real redis-server, with the trace's time passed to the scripts:
 * the same decisions as in memory, and exactly one successful script call per decision. The server
 * is this class's own, since the script calls are counted server-wide.
 */
class RedisReplayTest {

  private static RedisServer server;

  @BeforeAll
  static void startRedis() {
    server = RedisServer.start("replay");
  }

  @AfterAll
  static void stopRedis() {
    server.close();
  }

  static final List<String[]> CASES =
      List.of(
          new String[] {"pattern-a-poisson.txt", "fixed-window", "--limit", "10", "--window", "1"},
          new String[] {
            "pattern-a-poisson.txt", "sliding-window-counter", "--limit", "10", "--window", "1"
          },
          new String[] {
            "pattern-a-poisson.txt", "sliding-window-log", "--limit", "10", "--window", "1"
          },
          new String[] {
            "pattern-a-poisson.txt", "token-bucket", "--rate", "10", "--capacity", "20"
          },
          new String[] {
            "pattern-a-poisson.txt", "leaky-bucket", "--rate", "10", "--capacity", "20"
          },
          new String[] {"pattern-b-burst.txt", "fixed-window", "--limit", "10", "--window", "1"},
          new String[] {
            "pattern-b-burst.txt", "sliding-window-counter", "--limit", "10", "--window", "1"
          },
          new String[] {"pattern-b-burst.txt", "token-bucket", "--rate", "10", "--capacity", "20"},
          new String[] {"pattern-b-burst.txt", "leaky-bucket", "--rate", "10", "--capacity", "20"},
          new String[] {"pattern-c-boundary.txt", "fixed-window", "--limit", "10", "--window", "1"},
          new String[] {
            "pattern-c-boundary.txt", "sliding-window-counter", "--limit", "10", "--window", "1"
          },
          new String[] {
            "pattern-c-boundary.txt",
            "token-bucket",
            "--rate",
            "10",
            "--capacity",
            "20",
            "--initial",
            "0"
          },
          new String[] {
            "pattern-c-boundary.txt", "leaky-bucket", "--rate", "10", "--capacity", "20"
          });

  @Test
  void everyTableDecidesThroughRedisExactlyAsInMemory_withOneScriptCallPerDecision() {
    long decisions = 0;
    long before = successfulScriptCalls();
    for (String[] c : CASES) {
      String[] params = Arrays.copyOfRange(c, 2, c.length);
      List<String> memory = ArticleTablesTest.decisions(c[0], c[1], params);
      List<String> redis =
          ArticleTablesTest.run(
              withRedis(
                  ArticleTablesTest.concat(new String[] {"--decisions"}, c[1], params, c[0])));
      assertThat(redis).as(String.join(" ", c)).isEqualTo(memory);
      decisions += memory.size();
    }
    assertThat(successfulScriptCalls() - before).isEqualTo(decisions);
  }

  @Test
  void theFiguresHoldThroughRedis() {
    List<String> burst =
        ArticleTablesTest.run(
            withRedis(
                ArticleTablesTest.concat(
                    new String[0],
                    "leaky-bucket",
                    new String[] {"--rate", "10", "--capacity", "20"},
                    "pattern-b-burst.txt")));
    assertThat(burst)
        .contains("departures from 5.100 s to 7.100 s", "requests=30 allowed=21 rejected=9");
    List<String> attack =
        ArticleTablesTest.run(
            withRedis(
                ArticleTablesTest.concat(
                    new String[] {"--decisions"},
                    "sliding-window-counter",
                    new String[] {"--limit", "10", "--window", "1"},
                    "pattern-c-boundary.txt")));
    assertThat(ArticleTablesTest.admittedInAttack(attack)).isEqualTo(11);
  }

  private static String[] withRedis(String[] args) {
    List<String> all = new ArrayList<>(List.of("--store", "redis", "--redis-url", server.url()));
    all.addAll(List.of(args));
    return all.toArray(String[]::new);
  }

  /** EVALSHA and EVAL calls that did not fail: a NOSCRIPT retry counts its failed attempt apart. */
  private static long successfulScriptCalls() {
    long calls = 0;
    for (String command : List.of("evalsha", "eval")) {
      RedisServer.CommandStats stats = server.commandStats().get(command);
      if (stats != null) {
        calls += stats.calls() - stats.failedCalls() - stats.rejectedCalls();
      }
    }
    return calls;
  }
}
