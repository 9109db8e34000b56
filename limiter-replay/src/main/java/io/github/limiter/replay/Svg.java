package io.github.limiter.replay;

import java.util.Locale;

/** What the report's drawings share: the colours, text and escaping. */
final class Svg {

  static final String REQUESTS = "#7f8c8d";
  static final String ADMITTED = "#2e9e5b";
  static final String REJECTED = "#d1342f";
  static final String DEPARTED = "#2f6fd1";

  private Svg() {}

  static String span(long nanos) {
    return nanos < 1_000_000_000L ? nanos / 1_000_000 + " ms" : nanos / 1_000_000_000L + " s";
  }

  static long sum(long[] values) {
    long sum = 0;
    for (long v : values) {
      sum += v;
    }
    return sum;
  }

  static void text(
      StringBuilder svg, double x, double y, String anchor, String color, String text) {
    text(svg, x, y, anchor, color, text, "normal");
  }

  static void text(
      StringBuilder svg,
      double x,
      double y,
      String anchor,
      String color,
      String text,
      String weight) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\" "
                + "font-weight=\"%s\" font-size=\"13\">%s</text>%n",
            x,
            y,
            anchor,
            color,
            weight,
            esc(text)));
  }

  static String esc(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
