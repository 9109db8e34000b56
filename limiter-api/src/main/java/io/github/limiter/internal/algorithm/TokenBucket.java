package io.github.limiter.internal.algorithm;

import io.github.limiter.Limit;

/**
 * Token bucket of rate r = 1/T and capacity b, admitting while tokens &ge; permits.
 *
 * <p>The state is the instant {@code z} at which the bucket would have held zero tokens, so that
 * {@code tokens(now) = min(b, (now - z) / T)}. Fractional tokens are exact: they are nanoseconds.
 *
 * <p>Carried to a new limit, a key keeps its tokens (or its debt), capped at the new capacity: a
 * client that used part of its burst does not get a fresh one, and a lower capacity applies at
 * once.
 */
public final class TokenBucket extends LongStateFunction {

  private final Limit limit;
  private final long interval;
  private final long capacity;
  private final long full;
  private final long initialNanos;

  public TokenBucket(Limit limit) {
    this.limit = limit;
    this.interval = limit.intervalNanos();
    this.capacity = limit.burst();
    this.full = capacity * interval;
    this.initialNanos = limit.initial().orElse(capacity) * interval;
  }

  @Override
  public Limit limit() {
    return limit;
  }

  /** Tokens at {@code now} in nanoseconds of refill, capped at the capacity; overflow-safe. */
  private long saved(long zero, long now) {
    return Math.min(full, now - zero);
  }

  @Override
  public long fresh(long now) {
    return now - initialNanos;
  }

  @Override
  public long retryAfter(long zero, long now, long permits) {
    if (permits > capacity) {
      return NEVER;
    }
    long missing = permits * interval - saved(zero, now);
    return missing > 0 ? missing : 0;
  }

  @Override
  public long admit(long zero, long now, long permits) {
    return now - saved(zero, now) + permits * interval;
  }

  /** Debt is negative tokens, down to minus the capacity. */
  @Override
  public long charge(long zero, long now, long permits) {
    return now - Math.max(-full, saved(zero, now) - Math.min(permits, 2 * capacity) * interval);
  }

  @Override
  public long refund(long zero, long now, long permits) {
    return now - Math.min(full, saved(zero, now) + permits * interval);
  }

  @Override
  public long carry(LongStateFunction from, long zero, long now) {
    TokenBucket old = (TokenBucket) from;
    long saved = rescale(old.saved(zero, now), old.interval, interval);
    return now - Math.max(-full, Math.min(full, saved));
  }

  @Override
  public long remaining(long zero, long now) {
    long saved = saved(zero, now);
    return saved > 0 ? saved / interval : 0;
  }

  @Override
  public long resetAfter(long zero, long now) {
    return full - saved(zero, now);
  }
}
