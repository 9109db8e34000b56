package io.github.limiter.replay;

import io.github.limiter.Algorithm;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.algorithm.LimitFunction;
import io.github.limiter.internal.algorithm.PolicyFunction;

/**
 * Replays a whole trace through one limit in memory: Limiter's own pure algorithm function over
 * each key's state, with the trace's time as the clock. Keys are never forgotten, as in an
 * in-memory store that is never full. Pure and allocation-light, so sweeps run it in parallel.
 */
final class InMemoryReplay {

  /**
   * What one replay decided.
   *
   * @param allowed per request, whether it was admitted
   * @param departures per admitted request, when it leaves a leaky bucket's queue (its arrival for
   *     the other algorithms), in nanoseconds
   */
  record Run(boolean[] allowed, long[] departures) {}

  private InMemoryReplay() {}

  /**
   * Replays a trace through every limit of {@code policy}, all-or-nothing: a rate and a calendar
   * quota, whose periods follow the trace's time as time since the epoch.
   */
  static Run replay(Policy policy, Trace trace) {
    PolicyFunction f = PolicyFunction.of(policy);
    long[][] states = new long[trace.keyNames().length][];
    long[] nanos = trace.nanos();
    int[] keys = trace.keys();
    boolean[] allowed = new boolean[nanos.length];
    long[] departures = new long[nanos.length];
    for (int i = 0; i < nanos.length; i++) {
      long now = nanos[i];
      long[] state = states[keys[i]];
      if (state == null) {
        state = states[keys[i]] = f.fresh(now);
      }
      if (f.retryAfter(state, now, 1) == 0) {
        departures[i] = now + f.admit(state, now, 1).delayNanos();
        allowed[i] = true;
      }
    }
    return new Run(allowed, departures);
  }

  static Run replay(Algorithm algorithm, Limit limit, Trace trace) {
    LimitFunction f = PolicyFunction.function(algorithm, limit);
    int size = f.stateSize();
    long[] state = new long[trace.keyNames().length * size];
    boolean[] seen = new boolean[trace.keyNames().length];
    long[] nanos = trace.nanos();
    int[] keys = trace.keys();
    boolean[] allowed = new boolean[nanos.length];
    long[] departures = new long[nanos.length];
    for (int i = 0; i < nanos.length; i++) {
      long now = nanos[i];
      int at = keys[i] * size;
      if (!seen[keys[i]]) {
        seen[keys[i]] = true;
        f.fresh(state, at, now);
      }
      if (f.retryAfter(state, at, now, 1) == 0) {
        f.admit(state, at, now, 1);
        allowed[i] = true;
        departures[i] = now + f.delay(state, at, now);
      }
    }
    return new Run(allowed, departures);
  }
}
