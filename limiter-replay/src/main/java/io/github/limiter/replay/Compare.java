package io.github.limiter.replay;

import io.github.limiter.Algorithm;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** The {@code compare} command: one trace through all five algorithms, one table row each. */
final class Compare {

  private Compare() {}

  static void run(Options options, Trace trace, PrintStream out) {
    long span =
        options
            .with(Algorithm.FIXED_WINDOW, options.limit, options.window, null, null)
            .policy()
            .limits()
            .get(0)
            .periodNanos();
    List<Summary> summaries = new ArrayList<>();
    List<InMemoryReplay.Run> runs = new ArrayList<>();
    for (Algorithm algorithm : Replay.RATES) {
      InMemoryReplay.Run run =
          options
              .with(algorithm, options.limit, options.window, options.rate, options.capacity)
              .run(trace);
      runs.add(run);
      summaries.add(Summary.of(algorithm, trace, run, span));
    }
    out.println(
        "compare: "
            + trace.size()
            + " requests from "
            + trace.keyNames().length
            + " key"
            + (trace.keyNames().length == 1 ? "" : "s")
            + "; windows --limit "
            + options.limit
            + " --window "
            + options.window
            + ", buckets --rate "
            + options.rate
            + " --capacity "
            + options.capacity
            + (options.initial == null ? "" : " --initial " + options.initial)
            + (options.doubleArithmetic ? "; arithmetic=double" : ""));
    table(summaries, options.window).print(out);
    for (Summary s : summaries) {
      if (s.departures() != null) {
        out.println(
            s.algorithm() + " departures " + trace.span(s.departures()[0], s.departures()[1]));
      }
    }
    double[] ownRates = Keys.averageRates(trace);
    List<Keys> keys = new ArrayList<>();
    for (int i = 0; i < summaries.size(); i++) {
      Algorithm algorithm = summaries.get(i).algorithm();
      Options setting =
          options.with(algorithm, options.limit, options.window, options.rate, options.capacity);
      keys.add(
          Keys.of(
              algorithm.configName(),
              trace,
              runs.get(i).allowed(),
              ownRates,
              Keys.rate(setting.policy().limits().get(0)),
              options.topKeys));
    }
    Keys.print(keys, options.topKeys, out);
    if (options.report != null) {
      Report.compare(options, trace, summaries, runs, keys);
      out.println("report: " + options.report);
    }
  }

  static TextTable table(List<Summary> summaries, String window) {
    TextTable table =
        new TextTable(
            "algorithm",
            "requests",
            "admitted",
            "rejected",
            "rejected%",
            "keys hit",
            "worst key",
            "most in " + window + " s",
            "delay p50",
            "delay p99",
            "delay max");
    for (Summary s : summaries) {
      long[] d = s.delays();
      table.row(
          s.algorithm().configName(),
          Long.toString(s.requests()),
          Long.toString(s.admitted()),
          Long.toString(s.rejected()),
          TextTable.percent(s.rejectionRate()),
          s.keysHit() + "/" + s.keys(),
          TextTable.percent(s.worstKey()),
          Long.toString(s.mostInSpan()),
          d == null ? "-" : Replay.seconds(d[0]) + " s",
          d == null ? "-" : Replay.seconds(d[1]) + " s",
          d == null ? "-" : Replay.seconds(d[2]) + " s");
    }
    return table;
  }
}
