package io.github.limiter.internal.algorithm;

import io.github.limiter.Limit;
import java.math.BigInteger;

/**
 * Sliding window counter: the previous and the current aligned window's counts, interpolated as
 * {@code est = prev * (1 - elapsed/W) + curr}. One permit is admitted while {@code est < N}, and k
 * permits while {@code est + k - 1 < N}.
 *
 * <p>All comparisons are exact: they are scaled by W and done in integers, in {@code long} when N·W
 * fits and in {@link BigInteger} otherwise. State: {@code [window, current count, previous count]}.
 *
 * <p>Carried to a new limit of the same window W, a key keeps both counts, counted against the new
 * N. Carried to another W, the old estimate (rounded up) becomes the count of the new current
 * window: stricter than the old window would have been, never looser. Counts stay within 2N.
 */
public final class SlidingWindowCounter implements LimitFunction {

  private static final int WINDOW = 0;
  private static final int CURRENT = 1;
  private static final int PREVIOUS = 2;

  private final Limit limit;
  private final long window;
  private final long max;

  /** Whether N·W leaves room for the sum of two such products in a long. */
  private final boolean fitsInLong;

  public SlidingWindowCounter(Limit limit) {
    this.limit = limit;
    this.window = limit.periodNanos();
    this.max = limit.permits();
    this.fitsInLong = Math.multiplyHigh(max, window) == 0 && max * window < (1L << 61);
  }

  @Override
  public Limit limit() {
    return limit;
  }

  @Override
  public int stateSize() {
    return 3;
  }

  @Override
  public void fresh(long[] state, int at, long now) {
    state[at + WINDOW] = Math.floorDiv(now, window);
    state[at + CURRENT] = 0;
    state[at + PREVIOUS] = 0;
  }

  private long currentWindow(long now) {
    return Math.floorDiv(now, window);
  }

  /** The current window's count as of {@code now}: the stored one, rolled forward if needed. */
  private long current(long[] state, int at, long now) {
    return state[at + WINDOW] == currentWindow(now) ? state[at + CURRENT] : 0;
  }

  private long previous(long[] state, int at, long now) {
    long lag = currentWindow(now) - state[at + WINDOW];
    return lag == 0 ? state[at + PREVIOUS] : lag == 1 ? state[at + CURRENT] : 0;
  }

  /** W · (N - est) - W · (permits - 1): positive iff the request is admissible. */
  private BigInteger slack(long prev, long curr, long elapsed, long permits) {
    return BigInteger.valueOf(max - permits + 1 - curr)
        .multiply(BigInteger.valueOf(window))
        .subtract(BigInteger.valueOf(prev).multiply(BigInteger.valueOf(window - elapsed)));
  }

  private boolean admissible(long prev, long curr, long elapsed, long permits) {
    long allowance = max - permits + 1 - curr;
    if (allowance <= 0) {
      return false;
    }
    if (fitsInLong) {
      return prev * (window - elapsed) < allowance * window;
    }
    return slack(prev, curr, elapsed, permits).signum() > 0;
  }

  @Override
  public long retryAfter(long[] state, int at, long now, long permits) {
    if (permits > max) {
      return NEVER;
    }
    long prev = previous(state, at, now);
    long curr = current(state, at, now);
    long elapsed = Math.floorMod(now, window);
    if (admissible(prev, curr, elapsed, permits)) {
      return 0;
    }
    long allowance = max - permits + 1;
    long untilNext = window - elapsed;
    if (curr < allowance) {
      // Within this window, once prev * (W - e) < (allowance - curr) * W, or at its end.
      long first = firstElapsed(prev, allowance - curr);
      return Math.min(first - elapsed, untilNext);
    }
    // Next window: curr becomes prev and decays from there.
    return untilNext + firstElapsed(curr, allowance);
  }

  /**
   * The least e &ge; 0 with {@code weight * (W - e) < room * W}: floor(W·(weight − room)/weight) +
   * 1.
   */
  private long firstElapsed(long weight, long room) {
    if (weight < room) {
      return 0;
    }
    if (fitsInLong) {
      return window * (weight - room) / weight + 1;
    }
    return BigInteger.valueOf(window)
            .multiply(BigInteger.valueOf(weight - room))
            .divide(BigInteger.valueOf(weight))
            .longValueExact()
        + 1;
  }

  @Override
  public void admit(long[] state, int at, long now, long permits) {
    long prev = previous(state, at, now);
    long curr = current(state, at, now);
    state[at + WINDOW] = currentWindow(now);
    state[at + CURRENT] = curr + permits;
    state[at + PREVIOUS] = prev;
  }

  /**
   * Debt is a current count above N, up to 2N; it weighs on the next window as the previous count.
   */
  @Override
  public void charge(long[] state, int at, long now, long permits) {
    long prev = previous(state, at, now);
    long curr = current(state, at, now);
    state[at + WINDOW] = currentWindow(now);
    state[at + CURRENT] = Math.min(2 * max, curr + Math.min(permits, 2 * max));
    state[at + PREVIOUS] = prev;
  }

  @Override
  public void refund(long[] state, int at, long now, long permits) {
    if (state[at + WINDOW] == currentWindow(now)) {
      state[at + CURRENT] = Math.max(0, state[at + CURRENT] - permits);
    }
  }

  @Override
  public void carry(
      LimitFunction from, long[] fromState, int fromAt, long[] state, int at, long now) {
    SlidingWindowCounter old = (SlidingWindowCounter) from;
    long prev = old.previous(fromState, fromAt, now);
    long curr = old.current(fromState, fromAt, now);
    state[at + WINDOW] = currentWindow(now);
    if (old.window == window) {
      state[at + CURRENT] = Math.min(2 * max, curr);
      state[at + PREVIOUS] = Math.min(2 * max, prev);
      return;
    }
    long weighted = old.window - Math.floorMod(now, old.window);
    long estimate =
        curr
            + BigInteger.valueOf(prev)
                .multiply(BigInteger.valueOf(weighted))
                .add(BigInteger.valueOf(old.window - 1))
                .divide(BigInteger.valueOf(old.window))
                .longValueExact();
    state[at + CURRENT] = Math.min(2 * max, estimate);
    state[at + PREVIOUS] = 0;
  }

  @Override
  public long remaining(long[] state, int at, long now) {
    long prev = previous(state, at, now);
    long curr = current(state, at, now);
    long elapsed = Math.floorMod(now, window);
    // The count of unit requests j with est + j < N, i.e. ceil(N - est) = ceil(slack / W).
    if (fitsInLong) {
      long slack = (max - curr) * window - prev * (window - elapsed);
      return slack > 0 ? (slack + window - 1) / window : 0;
    }
    BigInteger slack = slack(prev, curr, elapsed, 1);
    if (slack.signum() <= 0) {
      return 0;
    }
    BigInteger[] qr = slack.divideAndRemainder(BigInteger.valueOf(window));
    return qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
  }

  @Override
  public long resetAfter(long[] state, int at, long now) {
    long untilNext = window - Math.floorMod(now, window);
    if (current(state, at, now) > 0) {
      return untilNext + window;
    }
    return previous(state, at, now) > 0 ? untilNext : 0;
  }
}
