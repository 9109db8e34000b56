package io.github.limiter.replay;

import static io.github.limiter.replay.Svg.ADMITTED;
import static io.github.limiter.replay.Svg.REJECTED;
import static io.github.limiter.replay.Svg.text;

import io.github.limiter.Limit;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Who was rejected: under one algorithm and setting, the keys with the most rejections, the
 * behaving keys (their own average rate at most the setting's) apart from the others. Printed as a
 * table and drawn in the report, from the same rows.
 *
 * @param title the algorithm, or the sweep's setting
 * @param rate the setting's sustained rate per second: behaving keys send at most this
 * @param behavingKeys how many keys behave
 * @param otherKeys how many do not
 * @param behaving the behaving keys with the most rejections, most first
 * @param other the other keys with the most rejections, most first
 */
record Keys(
    String title,
    double rate,
    int behavingKeys,
    int otherKeys,
    List<Keys.Row> behaving,
    List<Keys.Row> other) {

  /**
   * One key.
   *
   * @param ownRate its own average rate: requests over its active span, at least one second
   */
  record Row(String key, double ownRate, long requests, long rejected) {
    double rejection() {
      return (double) rejected / requests;
    }
  }

  /** The rows of a group as the text table and the drawing show them: "behaving" or "other". */
  List<Row> group(boolean behavingGroup) {
    return behavingGroup ? behaving : other;
  }

  /** A limit's sustained rate per second: permits over the period. */
  static double rate(Limit limit) {
    return limit.permits() * 1e9 / limit.periodNanos();
  }

  /** The keys with a rejection under one run, at most {@code top} of each group. */
  static Keys of(
      String title, Trace trace, boolean[] allowed, double[] ownRates, double rate, int top) {
    int n = trace.keyNames().length;
    long[] requests = new long[n];
    long[] rejected = new long[n];
    for (int i = 0; i < allowed.length; i++) {
      requests[trace.keys()[i]]++;
      if (!allowed[i]) {
        rejected[trace.keys()[i]]++;
      }
    }
    List<Row> behaving = new ArrayList<>();
    List<Row> other = new ArrayList<>();
    int behavingKeys = 0;
    for (int k = 0; k < n; k++) {
      boolean behaves = ownRates[k] <= rate;
      behavingKeys += behaves ? 1 : 0;
      if (rejected[k] > 0) {
        Row row = new Row(trace.keyNames()[k], ownRates[k], requests[k], rejected[k]);
        (behaves ? behaving : other).add(row);
      }
    }
    Comparator<Row> most =
        Comparator.comparingLong(Row::rejected)
            .reversed()
            .thenComparing(Comparator.comparingDouble(Row::rejection).reversed())
            .thenComparing(Row::key);
    behaving.sort(most);
    other.sort(most);
    return new Keys(
        title,
        rate,
        behavingKeys,
        n - behavingKeys,
        List.copyOf(behaving.subList(0, Math.min(top, behaving.size()))),
        List.copyOf(other.subList(0, Math.min(top, other.size()))));
  }

  /** Each key's own average rate: its requests over its active span, at least one second. */
  static double[] averageRates(Trace trace) {
    int n = trace.keyNames().length;
    long[] count = new long[n];
    long[] first = new long[n];
    long[] last = new long[n];
    for (int i = 0; i < trace.size(); i++) {
      int k = trace.keys()[i];
      if (count[k]++ == 0) {
        first[k] = trace.nanos()[i];
      }
      last[k] = trace.nanos()[i];
    }
    double[] rates = new double[n];
    for (int k = 0; k < n; k++) {
      rates[k] = count[k] / Math.max((last[k] - first[k]) / 1e9, 1.0);
    }
    return rates;
  }

  /** The text output: one table, a block of rows per algorithm or setting. */
  static void print(List<Keys> sections, int top, PrintStream out) {
    out.println(
        "keys with the most rejections (at most "
            + top
            + " behaving and "
            + top
            + " other keys each; behaving: own average rate at most the limit's rate):");
    TextTable table =
        new TextTable("limit", "keys", "key", "own rate", "requests", "rejected", "rejected%");
    for (Keys s : sections) {
      String title = s.title + " (" + perSecond(s.rate) + ")";
      for (boolean behavingGroup : new boolean[] {true, false}) {
        String keys = (behavingGroup ? "behaving " : "other ") + s.count(behavingGroup);
        if (s.group(behavingGroup).isEmpty()) {
          table.row(title, keys, "none rejected", "", "", "", "");
          title = "";
        }
        for (Row r : s.group(behavingGroup)) {
          table.row(
              title,
              keys,
              r.key.isEmpty() ? "(no key)" : r.key,
              perSecond(r.ownRate),
              Long.toString(r.requests),
              Long.toString(r.rejected),
              TextTable.percent(r.rejection()));
          title = "";
          keys = "";
        }
      }
    }
    table.print(out);
  }

  private int count(boolean behavingGroup) {
    return behavingGroup ? behavingKeys : otherKeys;
  }

  /** A rate such as 5.03/s, to three significant digits at least. */
  static String perSecond(double rate) {
    return String.format(
        Locale.ROOT, rate < 10 ? "%.2f/s" : rate < 100 ? "%.1f/s" : "%.0f/s", rate);
  }

  /**
   * The drawing: one bar per key, as long as its requests on its group's scale, its rejected part
   * in red; the behaving keys in a block apart from the others. Every bar carries its count in
   * {@code data-count}.
   */
  String svg(String dataAttribute) {
    int width = 1200;
    int label = 250;
    int bar = 560;
    int row = 22;
    int heading = 30;
    int height =
        30 + 2 * heading + Math.max(1, behaving.size()) * row + Math.max(1, other.size()) * row;
    StringBuilder svg = new StringBuilder();
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"keys\" ")
        .append(dataAttribute)
        .append("=\"")
        .append(Svg.esc(title))
        .append(
            String.format(
                Locale.ROOT,
                "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">%n",
                width,
                height,
                width,
                height));
    text(svg, 8, 18, "start", "#111", title + ": limit " + perSecond(rate), "bold");
    int y = 30;
    for (boolean g : new boolean[] {true, false}) {
      List<Row> rows = group(g);
      long max = 1; // each group on its own scale, so that a behaving key's few rejections show
      for (Row r : rows) {
        max = Math.max(max, r.requests);
      }
      svg.append("<g class=\"key-group\" data-keys=\"")
          .append(g ? "behaving" : "other")
          .append("\">\n");
      text(
          svg,
          8,
          y + 20,
          "start",
          "#111",
          (g ? "behaving keys: " : "other keys: ")
              + count(g)
              + (g ? ", own rate at most the limit's" : ", own rate above the limit's")
              + (rows.isEmpty() ? "; none rejected" : "; most rejected first"),
          "bold");
      y += heading;
      for (Row r : rows) {
        double w = (double) r.requests / max * bar;
        double red = (double) r.rejected / max * bar;
        svg.append("<g class=\"key\" data-key=\"").append(Svg.esc(r.key)).append("\">\n");
        text(svg, 16, y + 15, "start", "#333", r.key.isEmpty() ? "(no key)" : r.key);
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"admitted\" data-count=\"%d\" x=\"%d\" y=\"%d\" width=\"%.2f\""
                    + " height=\"14\" fill=\"%s\"/>%n"
                    + "<rect class=\"rejected\" data-count=\"%d\" x=\"%.2f\" y=\"%d\""
                    + " width=\"%.2f\" height=\"14\" fill=\"%s\"/>%n",
                r.requests - r.rejected,
                label,
                y + 3,
                w - red,
                ADMITTED,
                r.rejected,
                label + w - red,
                y + 3,
                Math.max(red, 0.6),
                REJECTED));
        text(
            svg,
            label + bar + 10,
            y + 15,
            "start",
            "#555",
            r.rejected
                + " of "
                + r.requests
                + " rejected ("
                + TextTable.percent(r.rejection())
                + "), own rate "
                + perSecond(r.ownRate));
        svg.append("</g>\n");
        y += row;
      }
      if (rows.isEmpty()) {
        y += row;
      }
      svg.append("</g>\n");
    }
    svg.append("</svg>\n");
    return svg.toString();
  }
}
