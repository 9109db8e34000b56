package io.github.limiter.replay;

import io.github.limiter.Algorithm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The HTML report of compare and sweep: one self-contained file, inline SVG, no scripts, nothing
 * fetched. Like the article's figures, it draws the same traffic through each algorithm, one lane
 * each, on one time axis and one scale. Every drawn bar carries its count in {@code data-count}, so
 * a test can check that the picture says what the table says.
 */
final class Report {

  private static final int WIDTH = 1200;
  private static final int LABEL = 250;
  private static final int PLOT = WIDTH - LABEL - 20;
  private static final int LANE = 78;
  private static final String REQUESTS = "#7f8c8d";
  private static final String ADMITTED = "#2e9e5b";
  private static final String REJECTED = "#d1342f";
  private static final String DEPARTED = "#2f6fd1";

  private Report() {}

  static void compare(
      Replay.Options options, Trace trace, List<Summary> summaries, List<InMemoryReplay.Run> runs) {
    StringBuilder html = head("Limiter replay: all five algorithms on " + traceName(options));
    html.append("<p class=\"lead\">The same ")
        .append(trace.size())
        .append(" requests from ")
        .append(trace.keyNames().length)
        .append(trace.keyNames().length == 1 ? " key" : " keys")
        .append(" through each algorithm. Windows: <b>")
        .append(options.limit)
        .append(" requests per ")
        .append(options.window)
        .append(" s</b>. Buckets: <b>")
        .append(options.rate)
        .append(" per second, capacity ")
        .append(options.capacity)
        .append("</b>")
        .append(options.initial == null ? "" : " (initial " + options.initial + ")")
        .append(options.doubleArithmetic ? ", in the article's double arithmetic" : "")
        .append(".</p>\n");
    html.append(legend());
    Timeline timeline = new Timeline(trace, runs);
    html.append(
        timeline.svg(
            summaries, runs, "burst: most admitted in any " + options.window + " s", null));
    html.append(
            "<h2>The numbers</h2>\n<table class=\"summary\">\n<tr><th>algorithm</th><th>requests</th>"
                + "<th>admitted</th><th>rejected</th><th>rejected %</th><th>keys with a rejection</th><th>worst key rejected</th>"
                + "<th>most admitted in any ")
        .append(esc(options.window))
        .append(" s</th><th>queue delay p50 / p99 / max</th></tr>\n");
    for (Summary s : summaries) {
      long[] d = s.delays();
      html.append("<tr data-algorithm=\"")
          .append(s.algorithm().configName())
          .append("\"><td>")
          .append(s.algorithm().configName())
          .append("</td><td class=\"requests\">")
          .append(s.requests())
          .append("</td><td class=\"admitted\">")
          .append(s.admitted())
          .append("</td><td class=\"rejected\">")
          .append(s.rejected())
          .append("</td><td>")
          .append(TextTable.percent(s.rejectionRate()))
          .append("</td><td>")
          .append(s.keysHit())
          .append(" of ")
          .append(s.keys())
          .append("</td><td>")
          .append(TextTable.percent(s.worstKey()))
          .append("</td><td>")
          .append(s.mostInSpan())
          .append("</td><td>")
          .append(
              d == null
                  ? "–"
                  : Replay.seconds(d[0])
                      + " / "
                      + Replay.seconds(d[1])
                      + " / "
                      + Replay.seconds(d[2])
                      + " s")
          .append("</td></tr>\n");
    }
    html.append("</table>\n");
    write(options, html);
  }

  static void sweep(
      Replay.Options options,
      Trace trace,
      Sweep.Grid grid,
      List<Sweep.Point> points,
      Sweep.Point best,
      Sweep.Point shown,
      InMemoryReplay.Run run,
      String shownSetting,
      boolean[] behaving) {
    StringBuilder html =
        head(
            "Limiter replay: "
                + options.algorithm.configName()
                + " over a grid, on "
                + traceName(options));
    html.append("<p class=\"lead\">")
        .append(trace.size())
        .append(" requests from ")
        .append(trace.keyNames().length)
        .append(trace.keyNames().length == 1 ? " key" : " keys")
        .append(", replayed through <b>")
        .append(options.algorithm.configName())
        .append("</b> at each of ")
        .append(points.size())
        .append(
            " settings. The goal: reject as much as possible while the <b>behaving keys</b> "
                + "(their own average rate at most the limit's) lose at most <b>")
        .append(TextTable.percent(options.targetRejection))
        .append("</b> of their requests.</p>\n");
    html.append("<p class=\"verdict\">")
        .append(
            best == null
                ? "No setting in the grid meets the target: try higher values."
                : "Recommended: <b>"
                    + esc(shownSetting)
                    + "</b>, the tightest setting that meets the target. It rejects "
                    + TextTable.percent(best.summary().rejectionRate())
                    + " of all requests and "
                    + TextTable.percent(best.behavingRejection())
                    + " of the behaving keys' requests.")
        .append("</p>\n<div class=\"maps\">\n");
    html.append(
        heatMap(grid, points, best, "All requests rejected", false, options.targetRejection));
    html.append(
        heatMap(
            grid, points, best, "Behaving keys' requests rejected", true, options.targetRejection));
    html.append(
        "</div>\n<p class=\"note\">Each cell is one setting; darker means more rejected. The outlined cell "
            + "is the recommendation. Cells marked ✓ keep the behaving keys within the target; 'none': no key's average "
            + "rate is within that limit.</p>\n");
    html.append("<h2>")
        .append(best == null ? "The loosest setting" : "The recommended setting")
        .append(" over time: ")
        .append(esc(shownSetting))
        .append("</h2>\n");
    html.append(legend());
    html.append(
        new Timeline(trace, List.of(run))
            .svg(
                List.of(shown.summary()),
                List.of(run),
                "burst: most admitted in any "
                    + Replay.seconds(shown.summary().spanNanos()).replaceAll("\\.?0+$", "")
                    + " s",
                behaving));
    html.append("<h2>The numbers</h2>\n<table class=\"summary\">\n<tr><th>")
        .append(grid.xName().substring(2))
        .append("</th><th>")
        .append(grid.yName().substring(2))
        .append(
            "</th><th>requests</th><th>admitted</th>"
                + "<th>rejected</th><th>rejected %</th><th>worst key rejected</th><th>behaving keys</th>"
                + "<th>behaving keys' requests rejected</th></tr>\n");
    for (Sweep.Point p : points) {
      Summary s = p.summary();
      html.append("<tr")
          .append(p == best ? " class=\"best\"" : "")
          .append(p == shown ? " data-shown=\"true\"" : "")
          .append(" data-algorithm=\"")
          .append(s.algorithm().configName())
          .append("\"><td>")
          .append(grid.xs().get(p.xi()))
          .append("</td><td>")
          .append(grid.ys().get(p.yi()))
          .append("</td><td class=\"requests\">")
          .append(s.requests())
          .append("</td><td class=\"admitted\">")
          .append(s.admitted())
          .append("</td><td class=\"rejected\">")
          .append(s.rejected())
          .append("</td><td>")
          .append(TextTable.percent(s.rejectionRate()))
          .append("</td><td>")
          .append(TextTable.percent(s.worstKey()))
          .append("</td><td>")
          .append(p.behavingKeys())
          .append(" of ")
          .append(s.keys())
          .append("</td><td>")
          .append(p.behavingKeys() == 0 ? "–" : TextTable.percent(p.behavingRejection()))
          .append("</td></tr>\n");
    }
    html.append("</table>\n");
    write(options, html);
  }

  /** Requests over time, then one lane per algorithm, then the leaky bucket's departures. */
  private static final class Timeline {
    final long origin;
    final long bin;
    final int bins;
    final long[] arrivals;
    final long max;
    final long[] nanos;
    final int[] keyOf;

    Timeline(Trace trace, List<InMemoryReplay.Run> runs) {
      nanos = trace.nanos();
      keyOf = trace.keys();
      long first = nanos.length == 0 ? 0 : nanos[0];
      long end = nanos.length == 0 ? 1 : nanos[nanos.length - 1];
      for (InMemoryReplay.Run run : runs) {
        for (int i = 0; i < nanos.length; i++) {
          if (run.allowed()[i]) {
            end = Math.max(end, run.departures()[i]);
          }
        }
      }
      // Timestamps of a few hours or less are relative already: draw them as written.
      origin = first < 86_400_000_000_000L ? 0 : first / 1_000_000_000L * 1_000_000_000L;
      long width = Math.max(end - origin, 1);
      long b = 1_000_000L;
      for (long candidate :
          new long[] {
            1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000,
            120_000, 300_000, 600_000, 1_800_000, 3_600_000
          }) {
        b = candidate * 1_000_000L;
        if (width / b < 250) {
          break;
        }
      }
      bin = b;
      bins = (int) (width / bin) + 1;
      arrivals = new long[bins];
      for (long t : nanos) {
        arrivals[(int) ((t - origin) / bin)]++;
      }
      long m = 1;
      for (long a : arrivals) {
        m = Math.max(m, a);
      }
      max = m;
    }

    /**
     * The lanes; with {@code behaving} (a flag per key), two more lanes split the first run's
     * decisions between the behaving keys and the others.
     */
    String svg(
        List<Summary> summaries, List<InMemoryReplay.Run> runs, String burstNote, boolean[] behaving) {
      InMemoryReplay.Run leaky = null;
      Summary leakySummary = null;
      for (int i = 0; i < summaries.size(); i++) {
        if (summaries.get(i).algorithm() == Algorithm.LEAKY_BUCKET) {
          leaky = runs.get(i);
          leakySummary = summaries.get(i);
        }
      }
      int lanes = 1 + summaries.size() + (leaky == null ? 0 : 1) + (behaving == null ? 0 : 2);
      int height = lanes * LANE + 44;
      StringBuilder svg = new StringBuilder();
      svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"")
          .append(WIDTH)
          .append("\" height=\"")
          .append(height)
          .append("\" viewBox=\"0 0 ")
          .append(WIDTH)
          .append(' ')
          .append(height)
          .append("\" role=\"img\">\n");
      int y = 0;
      svg.append("<g class=\"arrivals\" data-requests=\"").append(sum(arrivals)).append("\">\n");
      label(
          svg,
          y,
          "requests arriving",
          sum(arrivals) + " in all",
          "tallest bar: " + max + " in " + span(bin));
      bars(svg, y, arrivals, null, REQUESTS, "request", max);
      svg.append("</g>\n");
      y += LANE;
      for (int i = 0; i < summaries.size(); i++) {
        Summary s = summaries.get(i);
        boolean[] allowed = runs.get(i).allowed();
        long[] admitted = new long[bins];
        long[] rejected = new long[bins];
        for (int r = 0; r < allowed.length; r++) {
          (allowed[r] ? admitted : rejected)[(int) ((nanos[r] - origin) / bin)]++;
        }
        svg.append("<g class=\"lane\" data-algorithm=\"")
            .append(s.algorithm().configName())
            .append("\">\n");
        label(
            svg,
            y,
            s.algorithm().configName(),
            s.admitted() + " admitted, " + s.rejected() + " rejected",
            TextTable.percent(s.rejectionRate()) + " rejected");
        // the busiest span of the window's width: the burst the downstream sees
        double x0 = x(s.mostFrom());
        double x1 = Math.max(x(s.mostFrom() + s.spanNanos()), x0 + 2);
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"busiest\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                    + "fill=\"#f5c542\" fill-opacity=\"0.25\" stroke=\"#c99a06\" stroke-dasharray=\"3 2\"/>%n",
                x0,
                y + 4,
                Math.min(x1, LABEL + PLOT) - x0,
                LANE - 10));
        boolean roomRight = x0 < LABEL + PLOT - 190;
        text(
            svg,
            roomRight ? x0 + 4 : Math.min(x1, LABEL + PLOT) - 4,
            y + 17,
            roomRight ? "start" : "end",
            "#8a6a00",
            burstNote.replaceFirst("^burst: ", "") + ": " + s.mostInSpan());
        bars(svg, y, admitted, rejected, ADMITTED, "admitted", max);
        svg.append("</g>\n");
        y += LANE;
      }
      if (behaving != null) {
        for (boolean side : new boolean[] {true, false}) {
          long[] admitted = new long[bins];
          long[] rejected = new long[bins];
          long in = 0;
          long out = 0;
          int keys = 0;
          for (boolean b : behaving) {
            keys += b == side ? 1 : 0;
          }
          boolean[] allowed = runs.get(0).allowed();
          for (int r = 0; r < allowed.length; r++) {
            if (behaving[keyOf[r]] == side) {
              (allowed[r] ? admitted : rejected)[(int) ((nanos[r] - origin) / bin)]++;
              if (allowed[r]) {
                in++;
              } else {
                out++;
              }
            }
          }
          svg.append("<g class=\"lane-part\" data-keys=\"")
              .append(side ? "behaving" : "other")
              .append("\">\n");
          label(
              svg,
              y,
              (side ? "behaving keys (" : "other keys (") + keys + ")",
              in + " admitted, " + out + " rejected",
              TextTable.percent(in + out == 0 ? 0 : (double) out / (in + out)) + " rejected");
          bars(svg, y, admitted, rejected, ADMITTED, "admitted", max);
          svg.append("</g>\n");
          y += LANE;
        }
      }
      if (leaky != null) {
        long[] departed = new long[bins];
        for (int r = 0; r < leaky.allowed().length; r++) {
          if (leaky.allowed()[r]) {
            departed[(int) ((leaky.departures()[r] - origin) / bin)]++;
          }
        }
        long[] d = leakySummary.delays();
        svg.append("<g class=\"departures\" data-algorithm=\"leaky-bucket\">\n");
        label(
            svg,
            y,
            "leaky-bucket departures",
            d == null ? "none" : "queued, leaving at the rate:",
            d == null
                ? ""
                : "delay p50 " + Replay.seconds(d[0]) + " s, max " + Replay.seconds(d[2]) + " s");
        long most = 1;
        for (long n : departed) {
          most = Math.max(most, n);
        }
        // a scale of its own, so that a queue draining one by one still shows
        bars(svg, y, departed, null, DEPARTED, "departed", most);
        text(
            svg,
            LABEL + PLOT,
            y + 12,
            "end",
            "#555",
            "own scale: tallest bar " + most + " in " + span(bin));
        svg.append("</g>\n");
        y += LANE;
      }
      axis(svg, y);
      svg.append("</svg>\n");
      return svg.toString();
    }

    double x(long nanos) {
      return LABEL + (double) (nanos - origin) / (bins * bin) * PLOT;
    }

    /** Bars from the lane's baseline; a second series stacks on the first. */
    private void bars(
        StringBuilder svg,
        int top,
        long[] lower,
        long[] upper,
        String color,
        String kind,
        long max) {
      double w = (double) PLOT / bins;
      double scale = (LANE - 22) / (double) max;
      int base = top + LANE - 6;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>%n",
              LABEL,
              base,
              LABEL + PLOT,
              base));
      for (int i = 0; i < bins; i++) {
        double h1 = lower[i] == 0 ? 0 : Math.max(1, lower[i] * scale);
        if (lower[i] > 0) {
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<rect class=\"%s\" data-count=\"%d\" x=\"%.2f\" y=\"%.2f\" "
                      + "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>%n",
                  kind,
                  lower[i],
                  LABEL + i * w,
                  base - h1,
                  Math.max(w - 0.3, 0.6),
                  h1,
                  color));
        }
        if (upper != null && upper[i] > 0) {
          double h2 = Math.max(1, upper[i] * scale);
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<rect class=\"rejected\" data-count=\"%d\" x=\"%.2f\" y=\"%.2f\" "
                      + "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>%n",
                  upper[i],
                  LABEL + i * w,
                  base - h1 - h2,
                  Math.max(w - 0.3, 0.6),
                  h2,
                  REJECTED));
        }
      }
    }

    private void axis(StringBuilder svg, int y) {
      long total = bins * bin;
      long step = bin;
      for (long candidate :
          new long[] {
            1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000,
            120_000, 300_000, 600_000, 1_800_000, 3_600_000, 7_200_000
          }) {
        step = candidate * 1_000_000L;
        if (total / step <= 12) {
          break;
        }
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
              LABEL,
              y + 2,
              LABEL + PLOT,
              y + 2));
      for (long t = 0; t <= total; t += step) {
        double x = LABEL + (double) t / total * PLOT;
        svg.append(
            String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>%n",
                x,
                y + 2,
                x,
                y + 7));
        text(svg, x, y + 20, "middle", "#333", Replay.seconds(t).replaceAll("\\.?0+$", ""));
      }
      text(svg, LABEL - 10, y + 20, "end", "#333", origin == 0 ? "time (s)" : "seconds after");
      if (origin != 0) {
        text(
            svg,
            LABEL - 10,
            y + 36,
            "end",
            "#333",
            Instant.ofEpochSecond(origin / 1_000_000_000L)
                .toString()
                .replace('T', ' ')
                .replace("Z", " UTC"));
      }
      text(
          svg,
          LABEL + PLOT / 2.0,
          y + 38,
          "middle",
          "#555",
          "each bar is " + span(bin) + " of traffic");
    }

    private void label(StringBuilder svg, int top, String title, String detail, String more) {
      text(svg, 8, top + LANE / 2.0 - 10, "start", "#111", title, "bold");
      text(svg, 8, top + LANE / 2.0 + 7, "start", "#555", detail);
      text(svg, 8, top + LANE / 2.0 + 23, "start", "#555", more);
    }
  }

  private static String heatMap(
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

  private static String span(long nanos) {
    return nanos < 1_000_000_000L ? nanos / 1_000_000 + " ms" : nanos / 1_000_000_000L + " s";
  }

  private static long sum(long[] values) {
    long sum = 0;
    for (long v : values) {
      sum += v;
    }
    return sum;
  }

  private static void text(
      StringBuilder svg, double x, double y, String anchor, String color, String text) {
    text(svg, x, y, anchor, color, text, "normal");
  }

  private static void text(
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

  private static String legend() {
    return "<p class=\"legend\"><span style=\"background:"
        + REQUESTS
        + "\"></span>requests arriving "
        + "<span style=\"background:"
        + ADMITTED
        + "\"></span>admitted "
        + "<span style=\"background:"
        + REJECTED
        + "\"></span>rejected "
        + "<span style=\"background:"
        + DEPARTED
        + "\"></span>leaving the leaky bucket's queue "
        + "<span class=\"busy\"></span>the busiest span of the window's width</p>\n";
  }

  private static StringBuilder head(String title) {
    return new StringBuilder(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        .append(esc(title))
        .append(
            "</title>\n<style>\n"
                + "body{font:14px/1.4 system-ui,sans-serif;margin:20px 28px;color:#111;max-width:1240px}\n"
                + "h1{font-size:21px;margin:0 0 6px}h2{font-size:17px;margin:22px 0 6px}\n"
                + ".lead,.verdict,.note{margin:4px 0 8px}.verdict{font-size:16px}.note{color:#555}\n"
                + ".legend span{display:inline-block;width:14px;height:11px;margin:0 5px 0 14px;vertical-align:middle}\n"
                + ".legend span.busy{background:rgba(245,197,66,.25);border:1px dashed #c99a06;height:9px}\n"
                + ".maps{display:flex;gap:24px;flex-wrap:wrap}\n"
                + "table{border-collapse:collapse;margin-top:6px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                + "td:first-child,th{text-align:left}tr.best td{background:#dbe7ff;font-weight:bold}\n"
                + "</style>\n</head>\n<body>\n<h1>")
        .append(esc(title))
        .append("</h1>\n");
  }

  private static void write(Replay.Options options, StringBuilder html) {
    html.append(
        "<p class=\"note\">Written by limiter-replay. Every bar carries its count; the numbers below "
            + "are the same replay's.</p>\n</body>\n</html>\n");
    try {
      Files.writeString(options.report, html, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ReplayException("--report: cannot write '" + options.report + "': " + e);
    }
  }

  private static String traceName(Replay.Options options) {
    return options.trace == null ? "stdin" : String.valueOf(options.trace.getFileName());
  }

  static String esc(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
