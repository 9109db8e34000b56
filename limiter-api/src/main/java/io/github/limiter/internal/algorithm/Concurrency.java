package io.github.limiter.internal.algorithm;

import io.github.limiter.Limit;

/**
 * At most N requests in flight per key. The state is the count held; {@link #admit} takes permits
 * and {@link #refund} is the release when the request ends. Nothing comes back with time, so a key
 * that holds permits is never fresh: a store must not forget it.
 *
 * <p>A store cannot know when a request in flight ends, so a rejection's retry-after is the limit's
 * period, a configured hint.
 *
 * <p>Carried to a new limit, a key keeps the permits it holds: above a lowered limit, new requests
 * wait until enough of them end.
 */
public final class Concurrency extends LongStateFunction {

  private final Limit limit;
  private final long max;
  private final long hint;

  public Concurrency(Limit limit) {
    this.limit = limit;
    this.max = limit.permits();
    this.hint = limit.periodNanos();
  }

  @Override
  public Limit limit() {
    return limit;
  }

  @Override
  public long fresh(long now) {
    return 0;
  }

  @Override
  public long retryAfter(long held, long now, long permits) {
    if (permits > max) {
      return NEVER;
    }
    return held + permits <= max ? 0 : hint;
  }

  @Override
  public long admit(long held, long now, long permits) {
    return held + permits;
  }

  /**
   * Holds {@code permits} more, admissible or not, up to 2N in all. Nothing drains with time, so a
   * charge stays held until it is given back.
   */
  @Override
  public long charge(long held, long now, long permits) {
    return Math.min(2 * max, held + Math.min(permits, 2 * max));
  }

  @Override
  public long refund(long held, long now, long permits) {
    return Math.max(0, held - permits);
  }

  @Override
  public long carry(LongStateFunction from, long held, long now) {
    return held;
  }

  @Override
  public long remaining(long held, long now) {
    return Math.max(0, max - held);
  }

  /** The hint while permits are held: never 0 then, so that no store forgets a held key. */
  @Override
  public long resetAfter(long held, long now) {
    return held > 0 ? hint : 0;
  }
}
