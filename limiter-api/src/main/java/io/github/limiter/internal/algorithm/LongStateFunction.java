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

  /**
   * The state under this limit of a key whose state was {@code state} under {@code from}, a limit
   * of the same algorithm: see {@link LimitFunction#carry}.
   */
  public abstract long carry(LongStateFunction from, long state, long now);

  /**
   * {@code nanos} of work at one interval, in nanoseconds at another: the same number of permits
   * (and fraction of one), rounded toward zero and kept within about ±2^62.
   */
  static long rescale(long nanos, long fromInterval, long toInterval) {
    long whole = nanos / fromInterval;
    long fraction = (long) ((double) (nanos % fromInterval) * toInterval / fromInterval);
    long bound = 1L << 62;
    if (Math.abs(whole) >= bound / toInterval) {
      return whole < 0 ? -bound : bound;
    }
    return whole * toInterval + fraction;
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
  public final void carry(
      LimitFunction from, long[] fromState, int fromAt, long[] state, int at, long now) {
    state[at] = carry((LongStateFunction) from, fromState[fromAt], now);
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
