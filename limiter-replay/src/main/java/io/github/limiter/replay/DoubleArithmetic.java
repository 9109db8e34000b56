package io.github.limiter.replay;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The article's reference arithmetic: the same algorithms over timestamps as IEEE-754 doubles in
 * seconds. It exists to compare with the article's tables, which it matches figure for figure.
 *
 * <p>Limiter itself decides in integer nanoseconds. The two differ where doubles round: on Pattern
 * C, {@code 0.3 - 0.2} is {@code 0.09999999999999998}, so the refilled token bucket holds a hair
 * under one token at 0.3 s, rejects that request, and carries the unused token into the attack,
 * admitting 12 instead of the exact 11.
 */
final class DoubleArithmetic {

  private DoubleArithmetic() {}

  static InMemoryReplay.Run replay(Options options, Trace trace) {
    boolean[] allowed = new boolean[trace.size()];
    long[] departures = new long[trace.size()];
    Map<Integer, double[]> states = new HashMap<>();
    Map<Integer, ArrayDeque<Double>> logs = new HashMap<>();
    double limit = options.limit == null ? 0 : Double.parseDouble(options.limit);
    double window = options.window == null ? 0 : Double.parseDouble(options.window);
    double rate = options.rate == null ? 0 : Double.parseDouble(options.rate);
    double capacity = options.capacity == null ? 0 : Double.parseDouble(options.capacity);
    for (int i = 0; i < allowed.length; i++) {
      double t = Double.parseDouble(trace.texts()[i]);
      int key = trace.keys()[i];
      switch (options.algorithm) {
        case FIXED_WINDOW, SLIDING_WINDOW_COUNTER -> {
          // state: [window index, current count, previous count]
          double[] s = states.computeIfAbsent(key, k -> new double[] {Double.NaN, 0, 0});
          double w = Math.floor(t / window);
          if (s[0] != w) {
            s[2] = s[0] == w - 1 ? s[1] : 0;
            s[1] = 0;
            s[0] = w;
          }
          double estimate =
              options.algorithm == io.github.limiter.Algorithm.FIXED_WINDOW
                  ? s[1]
                  : s[2] * (1 - (t - w * window) / window) + s[1];
          allowed[i] = estimate < limit;
          if (allowed[i]) {
            s[1]++;
          }
        }
        case SLIDING_WINDOW_LOG -> {
          ArrayDeque<Double> log = logs.computeIfAbsent(key, k -> new ArrayDeque<>());
          while (!log.isEmpty() && log.peekFirst() <= t - window) {
            log.pollFirst();
          }
          allowed[i] = log.size() < limit;
          if (allowed[i]) {
            log.addLast(t);
          }
        }
        case TOKEN_BUCKET -> {
          // state: [tokens, last]
          double initial = options.initial == null ? capacity : Double.parseDouble(options.initial);
          double[] s = states.computeIfAbsent(key, k -> new double[] {initial, t});
          s[0] = Math.min(capacity, s[0] + (t - s[1]) * rate);
          s[1] = t;
          allowed[i] = s[0] >= 1.0;
          if (allowed[i]) {
            s[0] -= 1.0;
          }
        }
        case LEAKY_BUCKET -> {
          // state: [level, last]
          double initial = options.initial == null ? 0 : Double.parseDouble(options.initial);
          double[] s = states.computeIfAbsent(key, k -> new double[] {initial, t});
          s[0] = Math.max(0.0, s[0] - (t - s[1]) * rate);
          s[1] = t;
          allowed[i] = s[0] < capacity;
          if (allowed[i]) {
            s[0] += 1.0;
            departures[i] = Math.round((t + s[0] / rate) * 1e9);
          }
        }
      }
    }
    return new InMemoryReplay.Run(allowed, departures);
  }
}
