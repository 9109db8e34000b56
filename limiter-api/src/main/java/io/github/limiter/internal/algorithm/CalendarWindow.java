package io.github.limiter.internal.algorithm;

import io.github.limiter.Limit;

/**
 * A calendar quota: at most N permits per period of the calendar ({@link CalendarPeriods}),
 * admitting while count + permits &le; N, whatever the policy's algorithm.
 *
 * <p>The state is two slots: the end of the period the count belongs to, in store time, and the
 * count. A state whose period has ended reads as a count of zero, so the key is fresh at the
 * period's end and a store may forget it then.
 *
 * <p><b>Debt does not cross a period boundary.</b> An actual cost charged beyond the quota keeps
 * the key out until its period ends (a count above N, up to 2N), and the next period starts with
 * the whole quota: a customer who paid for 10,000 calls a month gets 10,000 each month, and an
 * overrun shows in the month it happened (for billing), not as a smaller next month.
 *
 * <p>Store time is nanoseconds on the store's clock; {@code epochOffset} added to it gives
 * nanoseconds since the epoch, from which the periods are computed in the limit's zone.
 *
 * <p>Carried to a new limit, a key keeps its count in its current period, up to 2N.
 */
public final class CalendarWindow implements LimitFunction {

  private static final int END = 0;
  private static final int COUNT = 1;

  private final Limit limit;
  private final long max;
  private final long epochOffset;

  /** The last period computed, {start, end} in store time: calendar math only when it ends. */
  private volatile long[] cached = {0, 0};

  public CalendarWindow(Limit limit, long epochOffset) {
    if (!limit.isQuota()) {
      throw new IllegalArgumentException("not a calendar quota: " + limit);
    }
    this.limit = limit;
    this.max = limit.permits();
    this.epochOffset = epochOffset;
  }

  @Override
  public Limit limit() {
    return limit;
  }

  @Override
  public int stateSize() {
    return 2;
  }

  /** The period that holds {@code now}, {start, end} in store time. */
  long[] period(long now) {
    long[] span = cached;
    if (now - span[0] >= 0 && span[1] - now > 0) {
      return span;
    }
    long epochMillis = Math.floorDiv(now + epochOffset, 1_000_000L);
    long[] millis =
        CalendarPeriods.period(epochMillis, limit.calendar(), limit.zone(), limit.anchorDay());
    span = new long[] {millis[0] * 1_000_000L - epochOffset, millis[1] * 1_000_000L - epochOffset};
    cached = span;
    return span;
  }

  private long end(long now) {
    return period(now)[1];
  }

  private long count(long[] state, int at, long now) {
    return state[at + END] - now > 0 ? state[at + COUNT] : 0;
  }

  private void write(long[] state, int at, long now, long count) {
    state[at + END] = end(now);
    state[at + COUNT] = count;
  }

  @Override
  public void fresh(long[] state, int at, long now) {
    write(state, at, now, 0);
  }

  @Override
  public long retryAfter(long[] state, int at, long now, long permits) {
    if (permits > max) {
      return NEVER;
    }
    return count(state, at, now) + permits <= max ? 0 : end(now) - now;
  }

  @Override
  public void admit(long[] state, int at, long now, long permits) {
    write(state, at, now, count(state, at, now) + permits);
  }

  /** Debt is a count above N, up to 2N, until the period ends. */
  @Override
  public void charge(long[] state, int at, long now, long permits) {
    write(state, at, now, Math.min(2 * max, count(state, at, now) + Math.min(permits, 2 * max)));
  }

  @Override
  public void refund(long[] state, int at, long now, long permits) {
    write(state, at, now, Math.max(0, count(state, at, now) - permits));
  }

  @Override
  public void carry(
      LimitFunction from, long[] fromState, int fromAt, long[] state, int at, long now) {
    long count = from instanceof CalendarWindow c ? c.count(fromState, fromAt, now) : 0;
    write(state, at, now, Math.min(2 * max, count));
  }

  @Override
  public long remaining(long[] state, int at, long now) {
    return Math.max(0, max - count(state, at, now));
  }

  @Override
  public long resetAfter(long[] state, int at, long now) {
    return count(state, at, now) > 0 ? end(now) - now : 0;
  }
}
