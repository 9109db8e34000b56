package io.github.limiter.replay;

import io.github.limiter.Algorithm;
import java.util.Arrays;

/**
 * What one algorithm did to a trace, as the comparison table shows it.
 *
 * @param algorithm the algorithm
 * @param requests requests in the trace
 * @param admitted requests admitted
 * @param keys distinct keys
 * @param keysHit keys that saw at least one rejection
 * @param worstKey the highest rejection rate of any one key, 0 to 1
 * @param spanNanos the width of the span for {@code mostInSpan}: the window
 * @param mostInSpan the most requests admitted in any span of {@code spanNanos}, over all keys: the
 *     burst the downstream sees (the article's "up to 2N" for a fixed window)
 * @param mostFrom where the first such span starts, in nanoseconds
 * @param delays for the leaky bucket, the departure delay's p50, p99 and max in nanoseconds; else
 *     null
 * @param departures for the leaky bucket, the first and the last departure in nanoseconds; else
 *     null
 */
record Summary(
    Algorithm algorithm,
    long requests,
    long admitted,
    int keys,
    int keysHit,
    double worstKey,
    long spanNanos,
    long mostInSpan,
    long mostFrom,
    long[] delays,
    long[] departures) {

  long rejected() {
    return requests - admitted;
  }

  double rejectionRate() {
    return requests == 0 ? 0 : (double) rejected() / requests;
  }

  static Summary of(Algorithm algorithm, Trace trace, InMemoryReplay.Run run, long spanNanos) {
    boolean[] allowed = run.allowed();
    long[] nanos = trace.nanos();
    int[] keys = trace.keys();
    long[] perKey = new long[trace.keyNames().length];
    long[] rejectedPerKey = new long[perKey.length];
    long admitted = 0;
    for (int i = 0; i < allowed.length; i++) {
      perKey[keys[i]]++;
      if (allowed[i]) {
        admitted++;
      } else {
        rejectedPerKey[keys[i]]++;
      }
    }
    int hit = 0;
    double worst = 0;
    for (int k = 0; k < perKey.length; k++) {
      if (rejectedPerKey[k] > 0) {
        hit++;
        worst = Math.max(worst, (double) rejectedPerKey[k] / perKey[k]);
      }
    }
    long most = 0;
    long mostFrom = 0;
    for (int from = 0, to = 0, inSpan = 0;
        to < allowed.length;
        to++) { // admitted in [nanos[from], +span)
      if (!allowed[to]) {
        continue;
      }
      inSpan++;
      while (nanos[to] - nanos[from] >= spanNanos || !allowed[from]) {
        if (allowed[from]) {
          inSpan--;
        }
        from++;
      }
      if (inSpan > most) {
        most = inSpan;
        mostFrom = nanos[from];
      }
    }
    long[] delays = null;
    long[] departures = null;
    if (algorithm == Algorithm.LEAKY_BUCKET && admitted > 0) {
      long[] d = new long[(int) admitted];
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (int i = 0, j = 0; i < allowed.length; i++) {
        if (allowed[i]) {
          d[j++] = run.departures()[i] - nanos[i];
          first = Math.min(first, run.departures()[i]);
          last = Math.max(last, run.departures()[i]);
        }
      }
      Arrays.sort(d);
      delays = new long[] {percentile(d, 50), percentile(d, 99), d[d.length - 1]};
      departures = new long[] {first, last};
    }
    return new Summary(
        algorithm,
        allowed.length,
        admitted,
        perKey.length,
        hit,
        worst,
        spanNanos,
        most,
        mostFrom,
        delays,
        departures);
  }

  /** Nearest rank: the smallest value with at least p percent of the values at or below it. */
  private static long percentile(long[] sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
