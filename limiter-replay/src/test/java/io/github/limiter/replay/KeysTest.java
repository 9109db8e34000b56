package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The keys section of compare and sweep: who was rejected, under each algorithm or the recommended
 * setting, the behaving keys apart. On the traffic (40 clients at a Poisson 5 requests/s,
 * one at 100/s, logged to the millisecond), every listed count is checked against the one-algorithm
 * command's per-key counts.
 */
class KeysTest {

  @TempDir static Path dir;
  static Path log;

  @BeforeAll
  static void writeTheLog() throws IOException {
    log = dir.resolve("msec.log");
    try (Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      AccessLogGenerator.write(w, 40, 120, 7, true);
    }
  }

  /** A listed key: its requests and rejections. */
  record Listed(String key, long requests, long rejected) {}

  @Test
  void compareListsTheMostRejectedKeysUnderEachAlgorithm_theBehavingKeysApart() {
    BadInputTest.Result result =
        run(
            "compare",
            "--limit",
            "10",
            "--window",
            "1",
            "--rate",
            "10",
            "--capacity",
            "10",
            "--format",
            "nginx-msec",
            log.toString());
    Map<String, Map<String, List<Listed>>> keys = keys(result.out());
    assertThat(keys.keySet())
        .containsExactly(
            "fixed-window (10.0/s)",
            "sliding-window-counter (10.0/s)",
            "sliding-window-log (10.0/s)",
            "token-bucket (10.0/s)",
            "leaky-bucket (10.0/s)");
    // the token bucket rejects the abuser alone, who sends at 100/s: not a behaving key
    assertThat(keys.get("token-bucket (10.0/s)").get("behaving 40")).isEmpty();
    assertThat(keys.get("token-bucket (10.0/s)").get("other 1"))
        .extracting(Listed::key)
        .containsExactly(AccessLogGenerator.ABUSER);
    for (String algorithm : ReportDrawingTest.ALGORITHMS) {
      Map<String, List<Listed>> groups = keys.get(algorithm + " (10.0/s)");
      String[] params =
          algorithm.endsWith("bucket")
              ? new String[] {"--rate", "10", "--capacity", "10"}
              : new String[] {"--limit", "10", "--window", "1"};
      Map<String, Listed> perKey = perKey(algorithm, params);
      List<Listed> behaving = groups.get("behaving 40");
      List<Listed> other = groups.get("other 1");
      assertThat(behaving).as(algorithm).hasSizeLessThanOrEqualTo(10);
      assertThat(behaving).extracting(Listed::key).allMatch(k -> k.startsWith("10.0."));
      assertThat(other).extracting(Listed::key).containsExactly(AccessLogGenerator.ABUSER);
      List<Listed> all = new ArrayList<>(behaving);
      all.addAll(other);
      for (Listed listed : all) {
        assertThat(listed).as(algorithm).isEqualTo(perKey.get(listed.key()));
      }
      // the most rejected first, and none left out that has more
      long legitRejectedMost =
          perKey.values().stream()
              .filter(l -> !l.key().equals(AccessLogGenerator.ABUSER))
              .mapToLong(Listed::rejected)
              .max()
              .orElse(0);
      if (legitRejectedMost > 0) {
        assertThat(behaving.get(0).rejected()).as(algorithm).isEqualTo(legitRejectedMost);
      }
      assertThat(behaving)
          .extracting(Listed::rejected)
          .isSortedAccordingTo((a, b) -> Long.compare(b, a));
    }
  }

  @Test
  void sweepListsThemUnderTheRecommendedSetting_andTopKeysBoundsTheList() {
    BadInputTest.Result result =
        run(
            "sweep",
            "--algorithm",
            "token-bucket",
            "--rate",
            "2..20",
            "--capacity",
            "5..50",
            "--top-keys",
            "3",
            "--format",
            "nginx-msec",
            log.toString());
    Matcher recommended =
        Pattern.compile("recommended: --rate (\\S+) --capacity (\\S+):").matcher(result.out());
    assertThat(recommended.find()).as(result.out()).isTrue();
    String setting = "--rate " + recommended.group(1) + " --capacity " + recommended.group(2);
    Map<String, Map<String, List<Listed>>> keys = keys(result.out());
    String title = "recommended " + setting + " (" + recommended.group(1) + ".00/s)";
    assertThat(keys.keySet()).containsExactly(title);
    List<Listed> behaving = keys.get(title).get("behaving 40");
    assertThat(behaving).hasSizeBetween(1, 3);
    Map<String, Listed> perKey =
        perKey(
            "token-bucket",
            new String[] {"--rate", recommended.group(1), "--capacity", recommended.group(2)});
    for (Listed listed : behaving) {
      assertThat(listed).isEqualTo(perKey.get(listed.key()));
    }
    assertThat(keys.get(title).get("other 1"))
        .containsExactly(perKey.get(AccessLogGenerator.ABUSER));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "compare --limit 1 --window 1 --rate 1 --capacity 1 --top-keys 0 | --top-keys: expected a"
            + " whole number from 1 to 10000, was '0'",
        "--algorithm fixed-window --limit 1 --window 1 --top-keys 3 | --top-keys is for compare and"
            + " sweep; the one-algorithm command prints every key",
      })
  void aBadTopKeysIsNamed(String args, String message) {
    BadInputTest.Result result = BadInputTest.run("0 a\n", args.trim().split(" "));
    assertThat(result.status()).isEqualTo(2);
    assertThat(result.err()).contains(message);
  }

  static BadInputTest.Result run(String... args) {
    BadInputTest.Result result = BadInputTest.run("", args);
    assertThat(result.status()).as(result.err()).isZero();
    return result;
  }

  /** The one-algorithm command's per-key counts. */
  private static Map<String, Listed> perKey(String algorithm, String[] params) {
    List<String> args = new ArrayList<>(List.of("--algorithm", algorithm));
    args.addAll(List.of(params));
    args.addAll(List.of("--format", "nginx-msec", log.toString()));
    BadInputTest.Result result = run(args.toArray(String[]::new));
    Map<String, Listed> perKey = new HashMap<>();
    Matcher m =
        Pattern.compile("key=(\\S+) requests=(\\d+) allowed=\\d+ rejected=(\\d+)")
            .matcher(result.out());
    while (m.find()) {
      perKey.put(
          m.group(1),
          new Listed(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))));
    }
    assertThat(perKey).hasSize(41);
    return perKey;
  }

  /** The printed keys table: per limit, per group ("behaving 40", "other 1"), the listed keys. */
  static Map<String, Map<String, List<Listed>>> keys(String out) {
    List<String> lines = out.lines().toList();
    int header = 0;
    while (!lines.get(header).startsWith("keys with the most rejections")) {
      header++;
    }
    assertThat(lines.get(header + 1).trim().split("\\s{2,}"))
        .containsExactly("limit", "keys", "key", "own rate", "requests", "rejected", "rejected%");
    Map<String, Map<String, List<Listed>>> keys = new LinkedHashMap<>();
    String title = null;
    String group = null;
    for (String line : lines.subList(header + 2, lines.size())) {
      if (line.startsWith("report: ")) {
        break;
      }
      List<String> cells = List.of(line.trim().split("\\s{2,}"));
      if (!line.startsWith(" ")) {
        title = cells.get(0);
        keys.put(title, new LinkedHashMap<>());
        cells = cells.subList(1, cells.size());
      }
      if (cells.get(0).matches("(behaving|other) \\d+")) {
        group = cells.get(0);
        keys.get(title).put(group, new ArrayList<>());
        cells = cells.subList(1, cells.size());
      }
      if (cells.equals(List.of("none rejected"))) {
        continue;
      }
      assertThat(cells).as(line).hasSize(5);
      keys.get(title)
          .get(group)
          .add(
              new Listed(cells.get(0), Long.parseLong(cells.get(2)), Long.parseLong(cells.get(3))));
    }
    return keys;
  }
}
