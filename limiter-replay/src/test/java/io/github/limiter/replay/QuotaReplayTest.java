package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A calendar quota replayed on an access log beside a rate: days from midnight in Berlin, across
 * the 25-hour day when clocks go back, exact to the millisecond, in memory and in Redis.
 */
class QuotaReplayTest {

  static final List<String> TIMES =
      List.of(
          "2024-10-26T21:00:00.000Z", // 23:00 CEST: the first two of the day pass
          "2024-10-26T21:10:00.000Z",
          "2024-10-26T21:59:59.999Z", // 1 ms before Berlin's midnight: over the quota
          "2024-10-26T22:00:00.000Z", // midnight: a new day
          "2024-10-27T12:00:00.000Z",
          "2024-10-27T22:59:59.999Z", // 23:59:59.999 CET, 25 hours on: still the same day
          "2024-10-27T23:00:00.000Z"); // the next midnight

  static final List<String> EXPECTED =
      List.of("ALLOW", "ALLOW", "REJECT", "ALLOW", "ALLOW", "REJECT", "ALLOW");

  @TempDir Path dir;

  private String[] args(String... extra) throws IOException {
    Path log = dir.resolve("access.log");
    List<String> lines = new ArrayList<>();
    for (String time : TIMES) {
      lines.add("customer [" + time + "] \"GET /api HTTP/1.1\" 200 12");
    }
    Files.write(log, lines);
    List<String> args =
        new ArrayList<>(
            List.of(
                "--algorithm",
                "token-bucket",
                "--rate",
                "10",
                "--capacity",
                "10",
                "--quota",
                "2/day",
                "--time-zone",
                "Europe/Berlin",
                "--format",
                "iso",
                "--decisions"));
    args.addAll(List.of(extra));
    args.add(log.toString());
    return args.toArray(String[]::new);
  }

  private static List<String> verdicts(List<String> lines) {
    return lines.stream().map(l -> l.split(" ")[1]).toList();
  }

  @Test
  void aDailyQuotaInBerlinResetsAtLocalMidnightInMemory() throws IOException {
    assertThat(verdicts(ArticleTablesTest.run(args()))).isEqualTo(EXPECTED);
  }

  @Test
  void theSameDecisionsInRedis() throws IOException {
    try (RedisServer server = RedisServer.start("quota-replay")) {
      assertThat(
              verdicts(
                  ArticleTablesTest.run(args("--store", "redis", "--redis-url", server.url()))))
          .isEqualTo(EXPECTED);
    }
  }

  @Test
  void theSummaryNamesTheQuota() throws IOException {
    List<String> summary =
        ArticleTablesTest.run(
            List.of(args()).stream().filter(a -> !a.equals("--decisions")).toArray(String[]::new));
    assertThat(String.join("\n", summary))
        .contains("quota=2/day time-zone=Europe/Berlin")
        .contains("allowed=5 rejected=2");
  }
}
