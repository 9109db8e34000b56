package io.github.limiter.replay;

import static io.github.limiter.replay.Svg.ADMITTED;
import static io.github.limiter.replay.Svg.DEPARTED;
import static io.github.limiter.replay.Svg.REJECTED;
import static io.github.limiter.replay.Svg.REQUESTS;
import static io.github.limiter.replay.Svg.span;
import static io.github.limiter.replay.Svg.sum;
import static io.github.limiter.replay.Svg.text;

import io.github.limiter.Algorithm;
import java.util.List;
import java.util.Locale;

/** Requests over time, then one lane per algorithm, then the leaky bucket's departures. */
final class Timeline {

  static final int WIDTH = 1200;
  private static final int LABEL = 250;
  private static final int PLOT = WIDTH - LABEL - 20;
  private static final int LANE = 78;

  final long origin;
  final long bin;
  final int bins;
  final long[] arrivals;
  final long max;
  final long[] nanos;
  final int[] keyOf;
  final Trace trace;

  Timeline(Trace trace, List<InMemoryReplay.Run> runs) {
    this.trace = trace;
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
    origin = trace.origin();
    long width = Math.max(end - origin, 1);
    long b = 1_000_000L;
    for (long candidate :
        new long[] {
          1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 120_000,
          300_000, 600_000, 1_800_000, 3_600_000
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
      List<Summary> summaries,
      List<InMemoryReplay.Run> runs,
      String burstNote,
      boolean[] behaving) {
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
      StringBuilder svg, int top, long[] lower, long[] upper, String color, String kind, long max) {
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
          1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 120_000,
          300_000, 600_000, 1_800_000, 3_600_000, 7_200_000
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
      text(svg, LABEL - 10, y + 36, "end", "#333", trace.originText());
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
