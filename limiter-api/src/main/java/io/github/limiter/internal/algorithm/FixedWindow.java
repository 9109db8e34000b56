package io.github.limiter.internal.algorithm;

import io.github.limiter.Limit;

/**
 * Fixed window counter: at most N permits per window [kW, (k+1)W), admitting while count + permits
 * &le; N (for one permit: count &lt; N).
 *
 * <p>The state is one position {@code window * N + count}: a position below the current window's
 * base means an older window, i.e. a count of zero. A count above N is debt (see {@link #charge}),
 * which the same encoding carries into the next window: there the position reads as count - N. That
 * needs N &le; W in nanoseconds, which {@link Limit} guarantees, for the position to stay within
 * the range of {@code now}.
 *
 * <p>Carried to a new limit, a key keeps the count of its window, counted against the new N in the
 * new limit's current window (up to 2N, as debt): a window never starts over because its limit
 * changed.
 */
public final class FixedWindow extends LongStateFunction {

  private final Limit limit;
  private final long window;
  private final long max;

  public FixedWindow(Limit limit) {
    this.limit = limit;
    this.window = limit.periodNanos();
    this.max = limit.permits();
  }

  @Override
  public Limit limit() {
    return limit;
  }

  private long base(long now) {
    return Math.floorDiv(now, window) * max;
  }

  private long count(long position, long now) {
    long count = position - base(now);
    // Above N means a state from a later window (a caller whose reading lags), which counts as is.
    // Far above it means a raw clock wrapped past Long.MAX_VALUE: the window index jumped back by
    // about 2^64 / W, and the state belongs to an older window, not to billions of permits.
    return count > 0 && count <= 2 * max ? count : 0;
  }

  /**
   * Until the next window, or until the clock wraps if that is sooner: the wrap ends a window too.
   */
  private long untilNextWindow(long now) {
    long untilNext = window - Math.floorMod(now, window);
    long untilWrap = Long.MIN_VALUE - now; // 2^63 - now: positive for now >= 1 only
    return untilWrap > 0 && untilWrap < untilNext ? untilWrap : untilNext;
  }

  @Override
  public long fresh(long now) {
    return base(now);
  }

  @Override
  public long retryAfter(long position, long now, long permits) {
    if (permits > max) {
      return NEVER;
    }
    long count = count(position, now);
    if (count + permits <= max) {
      return 0;
    }
    // Debt carried into the next window may keep the request out of that one too.
    return count - max + permits <= max ? untilNextWindow(now) : untilNextWindow(now) + window;
  }

  @Override
  public long admit(long position, long now, long permits) {
    return base(now) + count(position, now) + permits;
  }

  /** Debt is a count above N, up to 2N: the excess is counted in the next window. */
  @Override
  public long charge(long position, long now, long permits) {
    return base(now) + Math.min(2 * max, count(position, now) + Math.min(permits, 2 * max));
  }

  @Override
  public long refund(long position, long now, long permits) {
    return base(now) + Math.max(0, count(position, now) - permits);
  }

  @Override
  public long carry(LongStateFunction from, long position, long now) {
    long count = ((FixedWindow) from).count(position, now);
    return base(now) + Math.min(2 * max, count);
  }

  @Override
  public long remaining(long position, long now) {
    return Math.max(0, max - count(position, now));
  }

  @Override
  public long resetAfter(long position, long now) {
    long count = count(position, now);
    return count > max ? untilNextWindow(now) + window : count > 0 ? untilNextWindow(now) : 0;
  }
}
