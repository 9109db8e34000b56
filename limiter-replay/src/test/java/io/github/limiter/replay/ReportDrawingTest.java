package io.github.limiter.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The report's drawing, checked without a browser: the page is well-formed XML, so the JDK's own
 * parser reads it, and the checks walk its DOM. One lane per algorithm; every lane draws exactly
 * the counts of the HTML table and of the printed table. {@link ReportInBrowserTest} checks the
 * same page as a real browser builds it, when one is installed.
 */
class ReportDrawingTest {

  static final List<String> ALGORITHMS =
      List.of(
          "fixed-window",
          "sliding-window-counter",
          "sliding-window-log",
          "token-bucket",
          "leaky-bucket");

  @TempDir Path dir;

  @Test
  void theCompareReportDrawsOneLanePerAlgorithm_withTheTablesCounts() throws Exception {
    Path report = compareReport();
    Document page = parse(Files.readString(report, StandardCharsets.UTF_8));
    checkCompare(page, printed);
    assertThat(count(page, "//g[@class='lane'][@data-algorithm='token-bucket']//rect"))
        .isPositive();
    assertThat(sum(page, "//g[@class='arrivals']//rect[@class='request']")).isEqualTo(30);
    assertThat(sum(page, "//g[@class='departures']//rect[@class='departed']")).isEqualTo(21);
    // self-contained: nothing to run, nothing to fetch
    assertThat(count(page, "//script | //link | //img | //*[@src] | //*[@href]")).isZero();
  }

  /** The check is not a tautology: one bar's count changed by one fails it. */
  @Test
  void aLaneThatDrawsOtherCountsThanTheTableFailsTheCheck() throws Exception {
    String html = Files.readString(compareReport(), StandardCharsets.UTF_8);
    Matcher bar =
        Pattern.compile(
                "(<g class=\"lane\" data-algorithm=\"sliding-window-log\">.*?"
                    + "class=\"rejected\" data-count=\")(\\d+)",
                Pattern.DOTALL)
            .matcher(html);
    assertThat(bar.find()).isTrue();
    String broken =
        html.substring(0, bar.start(2))
            + (Long.parseLong(bar.group(2)) + 1)
            + html.substring(bar.end(2));
    Document page = parse(broken);
    assertThatThrownBy(() -> checkCompare(page, printed))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("sliding-window-log");
  }

  @Test
  void theSweepReportMarksTheRecommendationOnBothHeatMaps_andDrawsItsCounts() throws Exception {
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
    Document page = parse(Files.readString(report, StandardCharsets.UTF_8));

    for (String kind : List.of("all", "behaving")) {
      String map = "//svg[@class='heatmap'][@data-kind='" + kind + "']";
      assertThat(count(page, map + "/rect[@class='cell']")).as(kind).isEqualTo(100);
      assertThat(count(page, map + "/rect[@class='recommended']")).as(kind).isEqualTo(1);
      Element cell = element(page, map + "/rect[@class='cell'][@data-x='6'][@data-y='20']");
      Element mark = element(page, map + "/rect[@class='recommended']");
      assertThat(number(mark, "x")).isEqualTo(number(cell, "x") + 2);
      assertThat(number(mark, "y")).isEqualTo(number(cell, "y") + 2);
    }
    assertThat(attributes(page, "//g[@class='lane']", "data-algorithm"))
        .containsExactly("token-bucket");
    String best = "//tr[@class='best'][td[1]='6'][td[2]='20']";
    assertThat(count(page, best)).isEqualTo(1);
    long admitted = sum(page, "//g[@class='lane']//rect[@class='admitted']");
    long rejected = sum(page, "//g[@class='lane']//rect[@class='rejected']");
    assertThat(admitted).isEqualTo(cellCount(page, best, "admitted"));
    assertThat(rejected).isEqualTo(cellCount(page, best, "rejected"));
    String behaving = "//g[@class='lane-part'][@data-keys='behaving']//rect";
    String other = "//g[@class='lane-part'][@data-keys='other']//rect";
    assertThat(sum(page, behaving + "[@class='rejected']")).isZero();
    assertThat(
            sum(page, behaving + "[@class='admitted']") + sum(page, other + "[@class='admitted']"))
        .isEqualTo(admitted);
    assertThat(sum(page, other + "[@class='rejected']")).isEqualTo(rejected);
  }

  @Test
  void theKeysSectionDrawsThePrintedKeys_theBehavingOnesApart() throws Exception {
    Path log = dir.resolve("msec.log");
    try (Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      AccessLogGenerator.write(w, 40, 60, 42, true);
    }
    Path report = dir.resolve("keys.html");
    BadInputTest.Result result =
        KeysTest.run(
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
            "--top-keys",
            "5",
            "--report",
            report.toString(),
            log.toString());
    Map<String, Map<String, List<KeysTest.Listed>>> listed = KeysTest.keys(result.out());
    Document page = parse(Files.readString(report, StandardCharsets.UTF_8));

    assertThat(attributes(page, "//svg[@class='keys']", "data-algorithm"))
        .containsExactlyElementsOf(ALGORITHMS);
    for (String algorithm : ALGORITHMS) {
      Map<String, List<KeysTest.Listed>> groups = listed.get(algorithm + " (10.0/s)");
      for (String group : List.of("behaving", "other")) {
        String drawn =
            "//svg[@class='keys'][@data-algorithm='"
                + algorithm
                + "']/g[@class='key-group'][@data-keys='"
                + group
                + "']/g[@class='key']";
        List<KeysTest.Listed> rows = new ArrayList<>();
        for (String key : attributes(page, drawn, "data-key")) {
          String bars = drawn + "[@data-key='" + key + "']/rect";
          long rejected = sum(page, bars + "[@class='rejected']");
          rows.add(
              new KeysTest.Listed(
                  key, sum(page, bars + "[@class='admitted']") + rejected, rejected));
        }
        List<KeysTest.Listed> printedRows =
            groups.get(group + (group.equals("behaving") ? " 40" : " 1"));
        assertThat(rows).as(algorithm + " " + group).isEqualTo(printedRows);
      }
    }
  }

  private Map<String, Map<String, String>> printed;

  private Path compareReport() {
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
    printed = CompareTest.table(out);
    return report;
  }

  /** One lane per algorithm, in order, each drawing the HTML table's and the printed counts. */
  static void checkCompare(Document page, Map<String, Map<String, String>> printed)
      throws XPathExpressionException {
    assertThat(attributes(page, "//g[@class='lane']", "data-algorithm"))
        .containsExactlyElementsOf(ALGORITHMS);
    for (String algorithm : ALGORITHMS) {
      String lane = "//g[@class='lane'][@data-algorithm='" + algorithm + "']//rect";
      String row = "//tr[@data-algorithm='" + algorithm + "']";
      long[] drawn = {
        sum(page, lane + "[@class='admitted']"), sum(page, lane + "[@class='rejected']")
      };
      long[] table = {cellCount(page, row, "admitted"), cellCount(page, row, "rejected")};
      long[] text = {
        Long.parseLong(printed.get(algorithm).get("admitted")),
        Long.parseLong(printed.get(algorithm).get("rejected"))
      };
      assertThat(drawn).as(algorithm + " drawn vs the HTML table").containsExactly(table);
      assertThat(drawn).as(algorithm + " drawn vs the printed table").containsExactly(text);
    }
  }

  /** Parses the page as XML, loading nothing from outside it. */
  static Document parse(String page) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    factory.setExpandEntityReferences(false);
    return factory
        .newDocumentBuilder()
        .parse(new ByteArrayInputStream(page.getBytes(StandardCharsets.UTF_8)));
  }

  private static final XPath XPATH = XPathFactory.newInstance().newXPath();

  static NodeList nodes(Document page, String path) throws XPathExpressionException {
    return (NodeList) XPATH.evaluate(path, page, XPathConstants.NODESET);
  }

  static int count(Document page, String path) throws XPathExpressionException {
    return nodes(page, path).getLength();
  }

  static Element element(Document page, String path) throws XPathExpressionException {
    NodeList found = nodes(page, path);
    assertThat(found.getLength()).as(path).isEqualTo(1);
    return (Element) found.item(0);
  }

  /** The sum of the {@code data-count} of the elements found. */
  static long sum(Document page, String path) throws XPathExpressionException {
    NodeList found = nodes(page, path);
    long sum = 0;
    for (int i = 0; i < found.getLength(); i++) {
      sum += Long.parseLong(((Element) found.item(i)).getAttribute("data-count"));
    }
    return sum;
  }

  static List<String> attributes(Document page, String path, String attribute)
      throws XPathExpressionException {
    NodeList found = nodes(page, path);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < found.getLength(); i++) {
      values.add(((Element) found.item(i)).getAttribute(attribute));
    }
    return values;
  }

  /** A table row's cell of the given class, as a number. */
  static long cellCount(Document page, String row, String cssClass)
      throws XPathExpressionException {
    return Long.parseLong(element(page, row + "/td[@class='" + cssClass + "']").getTextContent());
  }

  private static double number(Element e, String attribute) {
    return Double.parseDouble(e.getAttribute(attribute));
  }
}
