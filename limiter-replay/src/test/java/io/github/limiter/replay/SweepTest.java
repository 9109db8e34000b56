package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code sweep} on an access log whose right answer is known by construction: 20 legitimate keys at
 * a steady 5 requests/s with Poisson jitter, and one abuser at 100 requests/s. On the grid {@code
 * --rate 2..20 --capacity 5..50} (rates 2, 4, ..., 20; capacities 5, 10, ..., 50), the tightest
 * rate that lets the legitimate keys through is 6, the first above their 5/s; the capacity is the
 * smallest that absorbs their jitter. The check uses the one-algorithm command's per-key counts,
 * not the sweep's own figures.
 */
class SweepTest {

  static final double TARGET = 0.001;

  @TempDir static Path dir;

  static Path log(long seed) throws IOException {
    Path log = dir.resolve("access-" + seed + ".log");
    try (Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      AccessLogGenerator.write(out, 20, 120, seed);
    }
    return log;
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {42, 7, 2026})
  void recommendsTheTightestSettingThatAdmitsTheLegitimateKeysAndRejectsMostOfTheAbuser(long seed)
      throws IOException {
    Path log = log(seed);
    BadInputTest.Result result =
        BadInputTest.run(
            "",
            "sweep",
            "--algorithm",
            "token-bucket",
            "--rate",
            "2..20",
            "--capacity",
            "5..50",
            "--target-rejection",
            "0.1%",
            "--format",
            "combined",
            log.toString());
    assertThat(result.status()).as(result.err()).isZero();
    // a CLF log has whole seconds: the one thing said on stderr
    assertThat(result.err().lines())
        .singleElement()
        .asString()
        .startsWith("limiter-replay: one-second resolution:");
    assertThat(result.out().lines().filter(l -> l.matches("\\d+ +\\d+ .*"))).hasSize(100);
    Matcher recommended =
        Pattern.compile("recommended: --rate (\\S+) --capacity (\\S+):").matcher(result.out());
    assertThat(recommended.find()).as(result.out()).isTrue();
    int rate = Integer.parseInt(recommended.group(1));
    int capacity = Integer.parseInt(recommended.group(2));

    assertThat(rate).isEqualTo(6);
    Counts at = counts(log, rate, capacity);
    assertThat(at.legitRejected).isLessThanOrEqualTo((long) (TARGET * at.legitRequests));
    assertThat((double) at.abuserRejected / at.abuserRequests).isGreaterThan(0.9);
    // tightest: one capacity step lower misses the target
    assertThat(capacity).isGreaterThan(5);
    Counts below = counts(log, rate, capacity - 5);
    assertThat(below.legitRejected).isGreaterThan((long) (TARGET * below.legitRequests));
  }

  record Counts(long legitRequests, long legitRejected, long abuserRequests, long abuserRejected) {}

  /** Per-key counts from the one-algorithm command. */
  static Counts counts(Path log, int rate, int capacity) {
    BadInputTest.Result result =
        BadInputTest.run(
            "",
            "--algorithm",
            "token-bucket",
            "--rate",
            Integer.toString(rate),
            "--capacity",
            Integer.toString(capacity),
            "--format",
            "combined",
            log.toString());
    assertThat(result.status()).as(result.err()).isZero();
    long[] c = new long[4];
    Pattern line = Pattern.compile("key=(\\S+) requests=(\\d+) allowed=\\d+ rejected=(\\d+)");
    List<String> keys = result.out().lines().filter(l -> l.startsWith("key=")).toList();
    assertThat(keys).hasSize(21);
    for (String l : keys) {
      Matcher m = line.matcher(l);
      assertThat(m.matches()).as(l).isTrue();
      int at = m.group(1).equals(AccessLogGenerator.ABUSER) ? 2 : 0;
      c[at] += Long.parseLong(m.group(2));
      c[at + 1] += Long.parseLong(m.group(3));
    }
    return new Counts(c[0], c[1], c[2], c[3]);
  }
}
