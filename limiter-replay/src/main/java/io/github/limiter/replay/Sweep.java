package io.github.limiter.replay;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The {@code sweep} command: one algorithm over a grid of its two parameters, and the tightest
 * setting that leaves the keys that behave alone. The article's FAQ tuning loop in one command.
 */
final class Sweep {

  private Sweep() {}

  /**
   * The grid: x is the rate (buckets) or the limit (windows), y the capacity or the window.
   *
   * @param xName the option of the x axis
   * @param yName the option of the y axis
   */
  record Grid(String xName, List<String> xs, String yName, List<String> ys) {}

  /**
   * One setting and what it did.
   *
   * @param options the command line for this setting
   * @param rate the sustained rate it allows, per second: rate, or limit over window
   * @param burst the most it admits at once: capacity, or limit
   * @param behavingKeys keys whose own average rate is at most {@code rate}
   */
  record Point(
      int xi,
      int yi,
      Options options,
      double rate,
      long burst,
      Summary summary,
      int behavingKeys,
      long behavingRequests,
      long behavingRejected) {

    double behavingRejection() {
      return behavingRequests == 0 ? 0 : (double) behavingRejected / behavingRequests;
    }
  }

  static Grid grid(Options o) {
    Grid grid =
        o.algorithm.isBucket()
            ? new Grid(
                "--rate",
                axis("--rate", o.rate, false, o.steps),
                "--capacity",
                axis("--capacity", o.capacity, true, o.steps))
            : new Grid(
                "--limit",
                axis("--limit", o.limit, true, o.steps),
                "--window",
                axis("--window", o.window, false, o.steps));
    for (String x : grid.xs) {
      for (String y : grid.ys) {
        setting(o, grid, x, y); // validates each value
      }
    }
    return grid;
  }

  private static Options setting(Options o, Grid grid, String x, String y) {
    return o.algorithm.isBucket()
        ? o.with(o.algorithm, null, null, x, y)
        : o.with(o.algorithm, x, y, null, null);
  }

  /** A value, a list 'a,b,c', or a range 'A..B' of {@code steps} values evenly spaced. */
  static List<String> axis(String option, String text, boolean whole, int steps) {
    if (text == null) {
      throw new ReplayException(
          option + " is required for this algorithm: a value, a list a,b,c or a range A..B");
    }
    Set<String> values = new LinkedHashSet<>();
    try {
      if (text.contains("..")) {
        String[] ends = text.split("\\.\\.", -1);
        BigDecimal from = new BigDecimal(ends[0]);
        BigDecimal to = new BigDecimal(ends[1]);
        if (ends.length != 2 || from.compareTo(to) >= 0) {
          throw new NumberFormatException();
        }
        BigDecimal step =
            to.subtract(from).divide(BigDecimal.valueOf(steps - 1), 12, RoundingMode.HALF_EVEN);
        for (int i = 0; i < steps; i++) {
          values.add(
              round(i == steps - 1 ? to : from.add(step.multiply(BigDecimal.valueOf(i))), whole));
        }
      } else {
        for (String value : text.split(",", -1)) {
          values.add(round(new BigDecimal(value.trim()), whole));
        }
      }
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      throw new ReplayException(
          option
              + ": expected a number, a list a,b,c or a range A..B with A < B, was '"
              + text
              + "'");
    }
    return List.copyOf(values);
  }

  /** Whole numbers for counts; three decimals at most for rates and windows. */
  private static String round(BigDecimal value, boolean whole) {
    BigDecimal rounded = value.setScale(whole ? 0 : 3, RoundingMode.HALF_UP).stripTrailingZeros();
    return rounded.scale() < 0 ? rounded.setScale(0).toPlainString() : rounded.toPlainString();
  }

  static void run(Options options, Trace trace, PrintStream out) {
    Grid grid = grid(options);
    double[] keyRates = Keys.averageRates(trace);
    long span = options.algorithm.isBucket() ? 1_000_000_000L : 0;
    List<int[]> cells = new ArrayList<>();
    for (int xi = 0; xi < grid.xs.size(); xi++) {
      for (int yi = 0; yi < grid.ys.size(); yi++) {
        cells.add(new int[] {xi, yi});
      }
    }
    // Replay is pure CPU and every setting is independent: one setting per core at a time.
    List<Point> points =
        IntStream.range(0, cells.size())
            .parallel()
            .mapToObj(
                c -> {
                  int[] cell = cells.get(c);
                  Options setting =
                      setting(options, grid, grid.xs.get(cell[0]), grid.ys.get(cell[1]));
                  io.github.limiter.Limit limit = setting.policy().limits().get(0);
                  return point(
                      cell[0],
                      cell[1],
                      setting,
                      Keys.rate(limit),
                      options.algorithm.isBucket() ? limit.burst() : limit.permits(),
                      trace,
                      keyRates,
                      span > 0 ? span : limit.periodNanos());
                })
            .toList();
    Point best = recommend(points, options.targetRejection);

    out.println(
        "sweep "
            + options.algorithm
            + ": "
            + trace.size()
            + " requests from "
            + trace.keyNames().length
            + " key"
            + (trace.keyNames().length == 1 ? "" : "s")
            + "; "
            + grid.xs.size() * grid.ys.size()
            + " settings; target: at most "
            + TextTable.percent(options.targetRejection)
            + " rejected for the behaving keys (own average rate at most the limit's)"
            + (options.doubleArithmetic ? "; arithmetic=double" : ""));
    TextTable table =
        new TextTable(
            grid.xName.substring(2),
            grid.yName.substring(2),
            "rejected%",
            "worst key",
            "behaving keys",
            "behaving rejected%",
            "");
    for (Point p : points) {
      table.row(
          grid.xs.get(p.xi),
          grid.ys.get(p.yi),
          TextTable.percent(p.summary.rejectionRate()),
          TextTable.percent(p.summary.worstKey()),
          p.behavingKeys + "/" + trace.keyNames().length,
          p.behavingKeys == 0 ? "-" : TextTable.percent(p.behavingRejection()),
          p == best ? "<- recommended" : "");
    }
    table.print(out);
    if (best == null) {
      out.println(
          "recommended: none: no setting keeps the behaving keys at or under "
              + TextTable.percent(options.targetRejection)
              + " rejected; try higher values");
    } else {
      out.println(
          "recommended: "
              + describe(grid, best)
              + ": the behaving keys ("
              + best.behavingKeys
              + " of "
              + trace.keyNames().length
              + ") "
              + TextTable.percent(best.behavingRejection())
              + " rejected; all requests "
              + TextTable.percent(best.summary.rejectionRate())
              + " rejected; worst key "
              + TextTable.percent(best.summary.worstKey()));
    }
    Point shown = best != null ? best : points.get(points.size() - 1);
    InMemoryReplay.Run run = shown.options.run(trace);
    String setting = (best != null ? "recommended " : "loosest ") + describe(grid, shown);
    Keys keys = Keys.of(setting, trace, run.allowed(), keyRates, shown.rate, options.topKeys);
    Keys.print(List.of(keys), options.topKeys, out);
    if (options.report != null) {
      boolean[] behaving = new boolean[keyRates.length];
      for (int k = 0; k < keyRates.length; k++) {
        behaving[k] = keyRates[k] <= shown.rate;
      }
      Report.sweep(
          options, trace, grid, points, best, shown, run, describe(grid, shown), behaving, keys);
      out.println("report: " + options.report);
    }
  }

  static String describe(Grid grid, Point p) {
    return grid.xName + " " + grid.xs.get(p.xi) + " " + grid.yName + " " + grid.ys.get(p.yi);
  }

  /** The tightest setting that meets the target: the lowest rate, then the smallest burst. */
  static Point recommend(List<Point> points, double target) {
    return points.stream()
        .filter(p -> p.behavingKeys > 0 && p.behavingRejected <= target * p.behavingRequests)
        .min(Comparator.comparingDouble(Point::rate).thenComparingLong(Point::burst))
        .orElse(null);
  }

  private static Point point(
      int xi,
      int yi,
      Options setting,
      double rate,
      long burst,
      Trace trace,
      double[] keyRates,
      long span) {
    InMemoryReplay.Run run = setting.run(trace);
    int[] keys = trace.keys();
    boolean[] allowed = run.allowed();
    long requests = 0;
    long rejected = 0;
    for (int i = 0; i < allowed.length; i++) {
      if (keyRates[keys[i]] <= rate) {
        requests++;
        if (!allowed[i]) {
          rejected++;
        }
      }
    }
    int behaving = 0;
    for (double r : keyRates) {
      if (r <= rate) {
        behaving++;
      }
    }
    return new Point(
        xi,
        yi,
        setting,
        rate,
        burst,
        Summary.of(setting.algorithm, trace, run, span),
        behaving,
        requests,
        rejected);
  }
}
