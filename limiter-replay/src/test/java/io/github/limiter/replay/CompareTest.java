package io.github.limiter.replay;

import static io.github.limiter.replay.ArticleTablesTest.run;
import static io.github.limiter.replay.ArticleTablesTest.tracePath;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code compare} prints every figure of the article's section 6 in one table per trace, with the
 * article's parameters: windows {@code --limit 10 --window 1}, buckets {@code --rate 10 --capacity
 * 20}.
 */
class CompareTest {

  static final String[] PARAMS = {
    "--limit", "10", "--window", "1", "--rate", "10", "--capacity", "20"
  };

  /** The table's rows by algorithm, each a map from column header to cell. */
  static Map<String, Map<String, String>> table(List<String> lines) {
    int header = 0;
    while (!lines.get(header).startsWith("algorithm ")) {
      header++;
    }
    String[] columns = lines.get(header).split("\\s{2,}");
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    for (String line : lines.subList(header + 1, header + 6)) {
      String[] cells = line.split("\\s{2,}");
      assertThat(cells).as(line).hasSameSizeAs(columns);
      Map<String, String> row = new LinkedHashMap<>();
      for (int c = 0; c < columns.length; c++) {
        row.put(columns[c], cells[c]);
      }
      rows.put(cells[0], row);
    }
    assertThat(rows.keySet())
        .containsExactly(
            "fixed-window",
            "sliding-window-counter",
            "sliding-window-log",
            "token-bucket",
            "leaky-bucket");
    return rows;
  }

  static List<String> compare(String trace, String... extra) {
    List<String> args = new ArrayList<>(List.of("compare"));
    args.addAll(List.of(PARAMS));
    args.addAll(List.of(extra));
    args.add(tracePath(trace).toString());
    return run(args.toArray(String[]::new));
  }

  static String cell(Map<String, Map<String, String>> table, String algorithm, String column) {
    return table.get(algorithm).get(column);
  }

  @Nested
  class PatternA_PoissonAt60PercentOfTheLimit {
    final Map<String, Map<String, String>> table = table(compare("pattern-a-poisson.txt"));

    @Test
    void windowsAdmit178Of184_bucketsAll184() {
      for (String algorithm : table.keySet()) {
        assertThat(cell(table, algorithm, "requests")).isEqualTo("184");
      }
      assertThat(cell(table, "fixed-window", "admitted")).isEqualTo("178");
      assertThat(cell(table, "fixed-window", "rejected")).isEqualTo("6");
      assertThat(cell(table, "fixed-window", "rejected%")).isEqualTo("3.26%");
      assertThat(cell(table, "sliding-window-counter", "admitted")).isEqualTo("178");
      assertThat(cell(table, "sliding-window-counter", "rejected")).isEqualTo("6");
      assertThat(cell(table, "token-bucket", "admitted")).isEqualTo("184");
      assertThat(cell(table, "token-bucket", "rejected%")).isEqualTo("0.00%");
      assertThat(cell(table, "token-bucket", "keys hit")).isEqualTo("0/1");
      assertThat(cell(table, "leaky-bucket", "admitted")).isEqualTo("184");
      assertThat(cell(table, "leaky-bucket", "keys hit")).isEqualTo("0/1");
    }

    @Test
    void theSlidingLogNeverAdmitsMoreThanTheLimitInAnyWindow() {
      assertThat(cell(table, "sliding-window-log", "most in 1 s")).isEqualTo("10");
    }
  }

  @Nested
  class PatternB_ThirtyRequestsIn20ms {
    final List<String> lines = compare("pattern-b-burst.txt");
    final Map<String, Map<String, String>> table = table(lines);

    @Test
    void windowsAdmit10_tokenBucket20_leakyBucket21() {
      assertThat(cell(table, "fixed-window", "admitted")).isEqualTo("10");
      assertThat(cell(table, "sliding-window-counter", "admitted")).isEqualTo("10");
      assertThat(cell(table, "token-bucket", "admitted")).isEqualTo("20");
      assertThat(cell(table, "token-bucket", "rejected")).isEqualTo("10");
      assertThat(cell(table, "leaky-bucket", "admitted")).isEqualTo("21");
      assertThat(cell(table, "leaky-bucket", "rejected")).isEqualTo("9");
      assertThat(cell(table, "leaky-bucket", "worst key")).isEqualTo("30.00%");
    }

    @Test
    void theLeakyBucketDrainsFrom5_100To7_100() {
      assertThat(lines).contains("leaky-bucket departures from 5.100 s to 7.100 s");
      // the first admitted leaves 100 ms after arriving at 5.0 s; the last, 2.086 s after 5.014 s
      assertThat(cell(table, "leaky-bucket", "delay max")).isEqualTo("2.086 s");
      assertThat(cell(table, "token-bucket", "delay max")).isEqualTo("-");
    }
  }

  @Nested
  class PatternC_BoundaryAttack {

    /** The attack is the busiest second of the trace, so "most in 1 s" is the article's figure. */
    @Test
    void theBurstAcrossTheBoundaryIs20_11_11_20() {
      Map<String, Map<String, String>> table =
          table(compare("pattern-c-boundary.txt", "--initial", "0"));
      assertThat(cell(table, "fixed-window", "most in 1 s")).isEqualTo("20");
      assertThat(cell(table, "sliding-window-counter", "most in 1 s")).isEqualTo("11");
      assertThat(cell(table, "token-bucket", "most in 1 s")).isEqualTo("11");
      assertThat(cell(table, "leaky-bucket", "most in 1 s")).isEqualTo("20");
      assertThat(cell(table, "sliding-window-log", "most in 1 s")).isEqualTo("10");
    }

    @Test
    void theArticlesDoubleArithmeticGivesItsTokenBucket12() {
      Map<String, Map<String, String>> table =
          table(compare("pattern-c-boundary.txt", "--initial", "0", "--arithmetic", "double"));
      assertThat(cell(table, "fixed-window", "most in 1 s")).isEqualTo("20");
      assertThat(cell(table, "sliding-window-counter", "most in 1 s")).isEqualTo("11");
      assertThat(cell(table, "token-bucket", "most in 1 s")).isEqualTo("12");
      assertThat(cell(table, "leaky-bucket", "most in 1 s")).isEqualTo("20");
    }
  }

  /**
   * Every row agrees with the one-algorithm command, the contract the article's tables are tested
   * on.
   */
  @Test
  void everyRowMatchesTheOneAlgorithmCommand() {
    for (String trace :
        List.of("pattern-a-poisson.txt", "pattern-b-burst.txt", "pattern-c-boundary.txt")) {
      Map<String, Map<String, String>> table = table(compare(trace));
      for (String algorithm : table.keySet()) {
        String[] params =
            algorithm.endsWith("bucket") ? ArticleTablesTest.BUCKET : ArticleTablesTest.WINDOW;
        String summary = ArticleTablesTest.summary(trace, algorithm, params);
        assertThat(summary)
            .as(trace + " " + algorithm)
            .endsWith(
                "requests="
                    + cell(table, algorithm, "requests")
                    + " allowed="
                    + cell(table, algorithm, "admitted")
                    + " rejected="
                    + cell(table, algorithm, "rejected"));
      }
    }
  }

  @Test
  void keysAreCountedApart() {
    BadInputTest.Result result =
        BadInputTest.run(
            "0 a\n0 a\n0 a\n0 b\n0.5 c\n",
            "compare",
            "--limit",
            "2",
            "--window",
            "1",
            "--rate",
            "1",
            "--capacity",
            "2");
    assertThat(result.status()).as(result.err()).isZero();
    Map<String, Map<String, String>> table = table(List.of(result.out().split("\n")));
    assertThat(cell(table, "fixed-window", "rejected")).isEqualTo("1");
    assertThat(cell(table, "fixed-window", "keys hit")).isEqualTo("1/3");
    assertThat(cell(table, "fixed-window", "worst key")).isEqualTo("33.33%");
    assertThat(cell(table, "fixed-window", "most in 1 s")).isEqualTo("4");
  }
}
