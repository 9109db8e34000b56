package io.github.limiter.internal.algorithm;

/**
 * A limit whose whole state is one {@code long}: the token bucket, the leaky bucket (GCRA) and the
 * fixed window. A store can keep such a key in a single atomic long and decide with one
 * compare-and-set, allocating nothing.
 */
public abstract class LongStateFunction implements LimitFunction {

  /** The state of a key seen for the first time at {@code now}. */
  public abstract long fresh(long now);

  /** As {@link LimitFunction#retryAfter(long[], int, long, long)}, for a one-long state. */
  public abstract long retryAfter(long state, long now, long permits);

  /** The state after admitting {@code permits}; the caller has seen {@code retryAfter} return 0. */
  public abstract long admit(long state, long now, long permits);

  /**
   * The state after charging {@code permits}, admissible or not: see {@link LimitFunction#charge}.
   */
  public abstract long charge(long state, long now, long permits);

  /** The state after giving back up to {@code permits}. */
  public abstract long refund(long state, long now, long permits);

  /** The state after charging {@code delta} permits, or giving back {@code -delta}. */
  public final long adjust(long state, long now, long delta) {
    return delta > 0 ? charge(state, now, delta) : delta < 0 ? refund(state, now, -delta) : state;
  }

  public abstract long remaining(long state, long now);

  public abstract long resetAfter(long state, long now);

  public long delay(long state, long now) {
    return 0;
  }

  @Override
  public final int stateSize() {
    return 1;
  }

  @Override
  public final void fresh(long[] state, int at, long now) {
    state[at] = fresh(now);
  }

  @Override
  public final long retryAfter(long[] state, int at, long now, long permits) {
    return retryAfter(state[at], now, permits);
  }

  @Override
  public final void admit(long[] state, int at, long now, long permits) {
    state[at] = admit(state[at], now, permits);
  }

  @Override
  public final void charge(long[] state, int at, long now, long permits) {
    state[at] = charge(state[at], now, permits);
  }

  @Override
  public final void refund(long[] state, int at, long now, long permits) {
    state[at] = refund(state[at], now, permits);
  }

  @Override
  public final long remaining(long[] state, int at, long now) {
    return remaining(state[at], now);
  }

  @Override
  public final long resetAfter(long[] state, int at, long now) {
    return resetAfter(state[at], now);
  }

  @Override
  public final long delay(long[] state, int at, long now) {
    return delay(state[at], now);
  }
}
