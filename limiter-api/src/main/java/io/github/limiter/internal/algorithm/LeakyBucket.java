package io.github.limiter.internal.algorithm;

import io.github.limiter.Limit;

/**
 * Leaky bucket as a virtual queue, equivalent to GCRA: level leaks at rate r = 1/T, and a request
 * of k permits is admitted while {@code level + k - 1 < capacity} (for one permit: level &lt;
 * capacity). An admitted request departs at {@code arrival + level_after / r}.
 *
 * <p>The state is the theoretical arrival time {@code tat}: the instant the queue empties, so that
 * {@code level(now) = max(0, tat - now) / T} and the departure of the last admission is {@code
 * tat}.
 *
 * <p>Carried to a new limit, a key keeps its level in permits, which leaks at the new rate: a level
 * above the new capacity keeps requests out until it has leaked below it (up to twice the capacity,
 * as debt).
 */
public final class LeakyBucket extends LongStateFunction {

  private final Limit limit;
  private final long interval;
  private final long capacity;
  private final long initialNanos;

  public LeakyBucket(Limit limit) {
    this.limit = limit;
    this.interval = limit.intervalNanos();
    this.capacity = limit.burst();
    this.initialNanos = limit.initial().orElse(0) * interval;
  }

  @Override
  public Limit limit() {
    return limit;
  }

  /** The queued work at {@code now} in nanoseconds; overflow-safe. */
  private static long backlog(long tat, long now) {
    return Math.max(0, tat - now);
  }

  @Override
  public long fresh(long now) {
    return now + initialNanos;
  }

  @Override
  public long retryAfter(long tat, long now, long permits) {
    if (permits > capacity) {
      return NEVER;
    }
    // Admissible while backlog < (capacity - permits + 1) * T; the first such instant is one tick
    // later.
    long excess = backlog(tat, now) - (capacity - permits + 1) * interval;
    return excess >= 0 ? excess + 1 : 0;
  }

  @Override
  public long admit(long tat, long now, long permits) {
    return now + backlog(tat, now) + permits * interval;
  }

  /** Debt is a level above the capacity, up to twice the capacity. */
  @Override
  public long charge(long tat, long now, long permits) {
    long most = 2 * capacity * interval;
    return now + Math.min(most, backlog(tat, now) + Math.min(permits, 2 * capacity) * interval);
  }

  @Override
  public long refund(long tat, long now, long permits) {
    return now + Math.max(0, backlog(tat, now) - permits * interval);
  }

  @Override
  public long carry(LongStateFunction from, long tat, long now) {
    LeakyBucket old = (LeakyBucket) from;
    long backlog = rescale(backlog(tat, now), old.interval, interval);
    return now + Math.min(2 * capacity * interval, backlog);
  }

  @Override
  public long remaining(long tat, long now) {
    long room = capacity * interval - backlog(tat, now);
    return room > 0 ? Math.floorDiv(room + interval - 1, interval) : 0;
  }

  @Override
  public long resetAfter(long tat, long now) {
    return backlog(tat, now);
  }

  @Override
  public long delay(long tat, long now) {
    return backlog(tat, now);
  }
}
