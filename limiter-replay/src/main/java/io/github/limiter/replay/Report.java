package io.github.limiter.replay;

import static io.github.limiter.replay.Svg.ADMITTED;
import static io.github.limiter.replay.Svg.DEPARTED;
import static io.github.limiter.replay.Svg.REJECTED;
import static io.github.limiter.replay.Svg.REQUESTS;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/**
 * The HTML report of compare and sweep: one self-contained file, inline SVG, no scripts, nothing
 * fetched. Like the article's figures, it draws the same traffic through each algorithm, one lane
 * each, on one time axis and one scale. Every drawn bar carries its count in {@code data-count}, so
 * a test can check that the picture says what the table says.
 */
final class Report {

  private Report() {}

  static void compare(
      Options options,
      Trace trace,
      List<Summary> summaries,
      List<InMemoryReplay.Run> runs,
      List<Keys> keys) {
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
        .append(Svg.esc(options.window))
        .append(" s</th><th>queue delay p50 / p99 / max</th></tr>\n");
    for (Summary s : summaries) {
      long[] d = s.delays();
      html.append("<tr data-algorithm=\"")
          .append(s.algorithm().configName())
          .append("\"><td>")
          .append(s.algorithm().configName())
          .append("</td>");
      countCells(html, s)
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
    html.append(keysSection(keys, "data-algorithm"));
    write(options, html);
  }

  static void sweep(
      Options options,
      Trace trace,
      Sweep.Grid grid,
      List<Sweep.Point> points,
      Sweep.Point best,
      Sweep.Point shown,
      InMemoryReplay.Run run,
      String shownSetting,
      boolean[] behaving,
      Keys keys) {
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
                    + Svg.esc(shownSetting)
                    + "</b>, the tightest setting that meets the target. It rejects "
                    + TextTable.percent(best.summary().rejectionRate())
                    + " of all requests and "
                    + TextTable.percent(best.behavingRejection())
                    + " of the behaving keys' requests.")
        .append("</p>\n<div class=\"maps\">\n");
    html.append(
        HeatMap.svg(grid, points, best, "All requests rejected", false, options.targetRejection));
    html.append(
        HeatMap.svg(
            grid, points, best, "Behaving keys' requests rejected", true, options.targetRejection));
    html.append(
        "</div>\n<p class=\"note\">Each cell is one setting; darker means more rejected. The outlined cell "
            + "is the recommendation. Cells marked ✓ keep the behaving keys within the target; 'none': no key's average "
            + "rate is within that limit.</p>\n");
    html.append("<h2>")
        .append(best == null ? "The loosest setting" : "The recommended setting")
        .append(" over time: ")
        .append(Svg.esc(shownSetting))
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
          .append("</td>");
      countCells(html, s)
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
    html.append(keysSection(List.of(keys), "data-setting"));
    write(options, html);
  }

  /** The cells both tables show of a run, from requests to rejected %, the last one left open. */
  private static StringBuilder countCells(StringBuilder html, Summary s) {
    return html.append("<td class=\"requests\">")
        .append(s.requests())
        .append("</td><td class=\"admitted\">")
        .append(s.admitted())
        .append("</td><td class=\"rejected\">")
        .append(s.rejected())
        .append("</td><td>")
        .append(TextTable.percent(s.rejectionRate()));
  }

  /** Who was rejected: the keys with the most rejections, the behaving ones apart. */
  private static String keysSection(List<Keys> sections, String dataAttribute) {
    StringBuilder html =
        new StringBuilder(
            "<h2>Keys</h2>\n<p class=\"note\">The keys with the most rejections, the behaving keys"
                + " (their own average rate, requests over their active span, at most the limit's)"
                + " apart from the others. Each bar is one key's requests, on its group's scale; red, the rejected.</p>\n");
    for (Keys keys : sections) {
      html.append(keys.svg(dataAttribute));
    }
    return html.toString();
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
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>")
        .append(Svg.esc(title))
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
        .append(Svg.esc(title))
        .append("</h1>\n");
  }

  private static void write(Options options, StringBuilder html) {
    html.append(
        "<p class=\"note\">Written by limiter-replay. Every bar carries its count; the numbers below "
            + "are the same replay's.</p>\n</body>\n</html>\n");
    try {
      Files.writeString(options.report, html, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ReplayException("--report: cannot write '" + options.report + "': " + e);
    }
  }

  private static String traceName(Options options) {
    return options.trace == null ? "stdin" : String.valueOf(options.trace.getFileName());
  }
}
