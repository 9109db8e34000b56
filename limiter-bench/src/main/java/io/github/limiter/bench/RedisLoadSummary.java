package io.github.limiter.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@link RedisLoad}'s closing table, in Markdown: per key count and thread count, each subject's
 * median round (throughput, client CPU, server CPU and script calls per decision), then Limiter's
 * default against each other subject as the median of the round-by-round ratios (the subjects
 * alternate, so each ratio compares runs that saw the same noise).
 */
final class RedisLoadSummary {

  private static final String DEFAULT = "limiter";

  private RedisLoadSummary() {}

  static String table(List<RedisLoad.Result> results, List<String> subjects) {
    Map<String, List<RedisLoad.Result>> cells = new LinkedHashMap<>();
    for (RedisLoad.Result r : results) {
      cells.computeIfAbsent(cell(r.keys(), r.threads()), c -> new ArrayList<>()).add(r);
    }
    List<String> others = new ArrayList<>(subjects);
    boolean ratios = others.remove(DEFAULT) && !others.isEmpty();
    StringBuilder out = new StringBuilder("\n| keys | threads |");
    StringBuilder rule = new StringBuilder("|---:|---:|");
    for (String s : subjects) {
      out.append(' ').append(s).append(": k/s; client, server µs; scripts |");
      rule.append("---|");
    }
    if (ratios) {
      for (String s : others) {
        out.append(" default ÷ ").append(s).append(": k/s; client CPU |");
        rule.append("---:|");
      }
    }
    out.append('\n').append(rule).append('\n');
    for (Map.Entry<String, List<RedisLoad.Result>> cell : cells.entrySet()) {
      out.append("| ").append(cell.getKey().replace("/", " | ")).append(" |");
      for (String s : subjects) {
        RedisLoad.Result m = medianRound(rounds(cell.getValue(), s));
        out.append(
            m == null
                ? " |"
                : String.format(
                    Locale.ROOT,
                    " %.1f; %.1f, %.1f; %.3f |",
                    m.callsPerSecond() / 1e3,
                    m.clientUsPerCall(),
                    m.serverUsPerCall(),
                    m.scriptCallsPerCall()));
      }
      if (ratios) {
        List<RedisLoad.Result> mine = rounds(cell.getValue(), DEFAULT);
        for (String s : others) {
          List<RedisLoad.Result> theirs = rounds(cell.getValue(), s);
          out.append(
              String.format(
                  Locale.ROOT,
                  " %.2f×; %.2f× |",
                  pairedMedian(mine, theirs, RedisLoad.Result::callsPerSecond),
                  pairedMedian(mine, theirs, r -> 1 / Math.max(1e-9, r.clientUsPerCall()))));
        }
      }
      out.append('\n');
    }
    out.append(
        "\nk/s: decisions per second of the median round; client: the benchmark JVM's CPU µs per"
            + " decision; server: redis-server's CPU µs per decision; scripts: EVAL/EVALSHA per"
            + " decision. Ratios: the median of the round-by-round ratios; client CPU as"
            + " decisions per CPU-second, so above 1 is better.\n");
    return out.toString();
  }

  private static String cell(int keys, int threads) {
    return keys + "/" + threads;
  }

  private static List<RedisLoad.Result> rounds(List<RedisLoad.Result> cell, String subject) {
    List<RedisLoad.Result> rounds = new ArrayList<>();
    for (RedisLoad.Result r : cell) {
      if (r.subject().equals(subject)) {
        rounds.add(r);
      }
    }
    return rounds;
  }

  /** The round of median throughput (the upper one of an even count). */
  private static RedisLoad.Result medianRound(List<RedisLoad.Result> rounds) {
    if (rounds.isEmpty()) {
      return null;
    }
    List<RedisLoad.Result> sorted = new ArrayList<>(rounds);
    sorted.sort(Comparator.comparingDouble(RedisLoad.Result::callsPerSecond));
    return sorted.get(sorted.size() / 2);
  }

  private static double pairedMedian(
      List<RedisLoad.Result> a, List<RedisLoad.Result> b, ToDoubleFunction<RedisLoad.Result> f) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      ratios.add(f.applyAsDouble(a.get(i)) / f.applyAsDouble(b.get(i)));
    }
    if (ratios.isEmpty()) {
      return Double.NaN;
    }
    ratios.sort(null);
    int n = ratios.size();
    return n % 2 == 1 ? ratios.get(n / 2) : (ratios.get(n / 2 - 1) + ratios.get(n / 2)) / 2;
  }
}
