package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.browser.Chromium;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report rendered by a real headless Chromium (Debian's {@code chromium}, which {@code
 * .ci/run} installs): the test reads the DOM as the browser built it, checks one lane per algorithm
 * and that every lane draws exactly the table's counts, and keeps a screenshot in {@code target/}
 * to look at. Without a browser it is skipped, except under {@code CI=true}; {@link
 * ReportDrawingTest} checks the drawing without one.
 */
class ReportInBrowserTest {

  @TempDir Path dir;

  /** Found before any work: without a browser the test is skipped (or, under CI=true, fails). */
  @BeforeEach
  void findTheBrowser() {
    Chromium.binary(RENDERS);
  }

  @Test
  void theCompareReportDrawsOneLanePerAlgorithm_withTheTablesCounts() throws Exception {
    Path report = dir.resolve("compare.html");
    List<String> out =
        ArticleTablesTest.run(
            "compare",
            "--limit",
            "10",
            "--window",
            "1",
            "--rate",
            "10",
            "--capacity",
            "20",
            "--report",
            report.toString(),
            ArticleTablesTest.tracePath("pattern-b-burst.txt").toString());
    Map<String, Map<String, String>> printed = CompareTest.table(out);

    String dom = render(report, "replay-report-compare.png");

    // self-contained: nothing to run, nothing to fetch (the SVG namespace is a name, not a fetch)
    assertThat(dom)
        .doesNotContain("<script")
        .doesNotContain("<link")
        .doesNotContain("url(")
        .doesNotContainPattern("\\s(src|href)=");
    Map<String, long[]> lanes = lanes(dom, "lane", "data-algorithm");
    assertThat(lanes.keySet())
        .containsExactly(
            "fixed-window",
            "sliding-window-counter",
            "sliding-window-log",
            "token-bucket",
            "leaky-bucket");
    Map<String, long[]> rows = rows(dom);
    for (String algorithm : lanes.keySet()) {
      long[] drawn = lanes.get(algorithm);
      assertThat(drawn).as(algorithm).containsExactly(rows.get(algorithm));
      assertThat(drawn[0])
          .as(algorithm)
          .isEqualTo(Long.parseLong(printed.get(algorithm).get("admitted")));
      assertThat(drawn[1])
          .as(algorithm)
          .isEqualTo(Long.parseLong(printed.get(algorithm).get("rejected")));
    }
    assertThat(lanes.get("token-bucket")).containsExactly(20, 10);
    assertThat(sum(group(dom, "arrivals", ""), "request")).isEqualTo(30);
    // the keys section: one drawing per algorithm; the one key sends 30 in 20 ms, not behaving,
    // and the last drawing (the leaky bucket's) shows its lane's counts
    Map<String, long[]> keys = lanes(dom, "key-group", "data-keys");
    assertThat(count(dom, "class=\"keys\"")).isEqualTo(5);
    assertThat(count(dom, "class=\"key-group\" data-keys=\"other\"")).isEqualTo(5);
    assertThat(keys.get("other")).containsExactly(lanes.get("leaky-bucket"));
    // every admitted request leaves the leaky bucket once
    assertThat(sum(group(dom, "departures", "data-algorithm=\"leaky-bucket\""), "departed"))
        .isEqualTo(21);
  }

  @Test
  void theSweepReportMarksTheRecommendationOnAHeatMap_andDrawsItsCounts() throws Exception {
    Path log = dir.resolve("access.log");
    try (Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      AccessLogGenerator.write(w, 20, 120, 42);
    }
    Path report = dir.resolve("sweep.html");
    List<String> out =
        ArticleTablesTest.run(
            "sweep",
            "--algorithm",
            "token-bucket",
            "--rate",
            "2..20",
            "--capacity",
            "5..50",
            "--format",
            "combined",
            "--report",
            report.toString(),
            log.toString());
    assertThat(out).anyMatch(l -> l.startsWith("recommended: --rate 6 --capacity 20:"));

    String dom = render(report, "replay-report-sweep.png");

    assertThat(dom).doesNotContain("<script");
    for (String kind : List.of("all", "behaving")) {
      String map =
          between(dom, "<svg[^>]*class=\"heatmap\"[^>]*data-kind=\"" + kind + "\"", "</svg>");
      assertThat(count(map, "class=\"cell\"")).isEqualTo(100);
      assertThat(count(map, "class=\"recommended\"")).isEqualTo(1);
      // the mark sits on the cell of --rate 6 --capacity 20
      Matcher cell =
          Pattern.compile("data-x=\"6\" data-y=\"20\"[^>]* x=\"(\\d+)\" y=\"(\\d+)\"").matcher(map);
      assertThat(cell.find()).isTrue();
      assertThat(map)
          .contains(
              "class=\"recommended\" x=\""
                  + (Integer.parseInt(cell.group(1)) + 2)
                  + "\" y=\""
                  + (Integer.parseInt(cell.group(2)) + 2)
                  + "\"");
    }
    Map<String, long[]> lanes = lanes(dom, "lane", "data-algorithm");
    assertThat(lanes.keySet()).containsExactly("token-bucket");
    Matcher best =
        Pattern.compile(
                "<tr class=\"best\"[^>]*><td>6</td><td>20</td><td class=\"requests\">\\d+</td>"
                    + "<td class=\"admitted\">(\\d+)</td><td class=\"rejected\">(\\d+)</td>")
            .matcher(dom);
    assertThat(best.find()).isTrue();
    assertThat(lanes.get("token-bucket"))
        .containsExactly(Long.parseLong(best.group(1)), Long.parseLong(best.group(2)));
    Map<String, long[]> parts = lanes(dom, "lane-part", "data-keys");
    assertThat(parts.get("behaving")[1]).isZero();
    assertThat(parts.get("behaving")[0] + parts.get("other")[0])
        .isEqualTo(lanes.get("token-bucket")[0]);
    assertThat(parts.get("behaving")[1] + parts.get("other")[1])
        .isEqualTo(lanes.get("token-bucket")[1]);
  }

  /** Renders the page in headless Chromium: returns the DOM it built, and keeps a screenshot. */
  static String render(Path page, String screenshot) throws IOException, InterruptedException {
    Path png = Path.of("target", screenshot).toAbsolutePath();
    Files.deleteIfExists(png);
    chromium(page, "--screenshot=" + png, "--window-size=1280,1400");
    assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G').hasSizeGreaterThan(20_000);
    return chromium(page, "--dump-dom");
  }

  private static String chromium(Path page, String... args)
      throws IOException, InterruptedException {
    return Chromium.run(RENDERS, page.toUri().toString(), args);
  }

  /** What the browser is for, should the test be skipped without one. */
  private static final String RENDERS =
      "renders the report (ReportDrawingTest checks the same drawing without a browser)";

  /**
   * Per group of the given class, keyed by the attribute: the admitted and rejected counts drawn.
   */
  static Map<String, long[]> lanes(String dom, String cssClass, String attribute) {
    Map<String, long[]> lanes = new LinkedHashMap<>();
    Matcher g =
        Pattern.compile(
                "<g class=\"" + cssClass + "\" " + attribute + "=\"([^\"]+)\">(.*?)</g>",
                Pattern.DOTALL)
            .matcher(dom);
    while (g.find()) {
      lanes.put(g.group(1), new long[] {sum(g.group(2), "admitted"), sum(g.group(2), "rejected")});
    }
    return lanes;
  }

  /** The table's admitted and rejected per algorithm. */
  static Map<String, long[]> rows(String dom) {
    Map<String, long[]> rows = new LinkedHashMap<>();
    Matcher row =
        Pattern.compile(
                "<tr data-algorithm=\"([^\"]+)\">.*?<td class=\"admitted\">(\\d+)</td>"
                    + "<td class=\"rejected\">(\\d+)</td>")
            .matcher(dom);
    while (row.find()) {
      rows.put(
          row.group(1), new long[] {Long.parseLong(row.group(2)), Long.parseLong(row.group(3))});
    }
    return rows;
  }

  /** The counts of the bars of one kind. */
  static long sum(String svg, String kind) {
    long sum = 0;
    Matcher rect = Pattern.compile("<rect ([^>]*)>").matcher(svg);
    while (rect.find()) {
      String attributes = rect.group(1);
      Matcher count = Pattern.compile("data-count=\"(\\d+)\"").matcher(attributes);
      if (attributes.contains("class=\"" + kind + "\"") && count.find()) {
        sum += Long.parseLong(count.group(1));
      }
    }
    return sum;
  }

  static String group(String dom, String cssClass, String attribute) {
    return between(
        dom, "<g class=\"" + cssClass + "\"[^>]*" + Pattern.quote(attribute) + "[^>]*>", "</g>");
  }

  static String between(String dom, String start, String end) {
    Matcher m = Pattern.compile(start + "(.*?)" + Pattern.quote(end), Pattern.DOTALL).matcher(dom);
    assertThat(m.find()).as(start).isTrue();
    return m.group(1);
  }

  static int count(String text, String needle) {
    return text.split(Pattern.quote(needle), -1).length - 1;
  }
}
