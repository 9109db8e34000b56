package io.github.limiter.replay;

import static io.github.limiter.replay.Svg.text;

import java.util.List;
import java.util.Locale;

/** The sweep's heat maps: one cell per setting, shaded by the share rejected. */
final class HeatMap {

  private HeatMap() {}

  static String svg(
      Sweep.Grid grid,
      List<Sweep.Point> points,
      Sweep.Point best,
      String title,
      boolean behaving,
      double target) {
    int cell = 44;
    int left = 80;
    int topPad = 34;
    int cols = grid.xs().size();
    int rows = grid.ys().size();
    int width = left + cols * cell + 20;
    int height = topPad + rows * cell + 50;
    StringBuilder svg = new StringBuilder();
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heatmap\" data-kind=\"")
        .append(behaving ? "behaving" : "all")
        .append("\" width=\"")
        .append(width)
        .append("\" height=\"")
        .append(height)
        .append("\" viewBox=\"0 0 ")
        .append(width)
        .append(' ')
        .append(height)
        .append("\">\n");
    text(svg, left, 18, "start", "#111", title, "bold");
    for (Sweep.Point p : points) {
      boolean none = behaving && p.behavingKeys() == 0;
      double share = behaving ? p.behavingRejection() : p.summary().rejectionRate();
      int x = left + p.xi() * cell;
      int y = topPad + (rows - 1 - p.yi()) * cell;
      boolean meets = p.behavingKeys() > 0 && p.behavingRejected() <= target * p.behavingRequests();
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"cell\" data-x=\"%s\" data-y=\"%s\" data-rejected=\"%.6f\" "
                  + "x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#fff\"/>%n",
              grid.xs().get(p.xi()),
              grid.ys().get(p.yi()),
              share,
              x,
              y,
              cell,
              cell,
              none ? "#e6e6e6" : heat(share)));
      String ink = Math.sqrt(share) > 0.55 ? "#fff" : "#222";
      text(
          svg,
          x + cell / 2.0,
          y + cell / 2.0 + (meets ? 0 : 4),
          "middle",
          ink,
          none ? "none" : shortPercent(share));
      if (meets) {
        text(svg, x + cell / 2.0, y + cell / 2.0 + 14, "middle", ink, "✓");
      }
      if (p == best) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"recommended\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                    + "fill=\"none\" stroke=\"#1a56db\" stroke-width=\"4\"/>%n",
                x + 2,
                y + 2,
                cell - 4,
                cell - 4));
      }
    }
    for (int i = 0; i < cols; i++) {
      text(
          svg,
          left + i * cell + cell / 2.0,
          topPad + rows * cell + 16,
          "middle",
          "#333",
          grid.xs().get(i));
    }
    for (int j = 0; j < rows; j++) {
      text(
          svg,
          left - 6,
          topPad + (rows - 1 - j) * cell + cell / 2.0 + 4,
          "end",
          "#333",
          grid.ys().get(j));
    }
    text(
        svg,
        left + cols * cell / 2.0,
        topPad + rows * cell + 36,
        "middle",
        "#111",
        grid.xName() + " →");
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#111\" "
                + "font-size=\"13\" transform=\"rotate(-90 16 %.1f)\">%s →</text>%n",
            topPad + rows * cell / 2.0,
            topPad + rows * cell / 2.0,
            grid.yName()));
    svg.append("</svg>\n");
    return svg.toString();
  }

  /** White to dark red, on a square-root scale so that small shares still show. */
  private static String heat(double share) {
    double t = Math.sqrt(Math.max(0, Math.min(1, share)));
    int r = (int) Math.round(255 + t * (103 - 255));
    int g = (int) Math.round(247 + t * (0 - 247));
    int b = (int) Math.round(240 + t * (13 - 240));
    return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, b);
  }

  private static String shortPercent(double share) {
    double p = share * 100;
    return p == 0
        ? "0"
        : p < 0.1
            ? "<0.1%"
            : p < 10
                ? String.format(Locale.ROOT, "%.1f%%", p)
                : String.format(Locale.ROOT, "%.0f%%", p);
  }
}
