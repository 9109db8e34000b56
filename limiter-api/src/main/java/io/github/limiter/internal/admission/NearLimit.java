package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;

/**
 * The one near-limit test, shared by the {@code RateLimitNearLimit} event and the {@code
 * limiter.near.limit} metric: an admission that leaves at most {@code limiter.events.near-limit} of
 * the quota (a bucket's burst, a window's permits).
 *
 * @param fraction {@code limiter.events.near-limit}
 */
public record NearLimit(double fraction) {

  public boolean test(Policy policy, Decision decision) {
    Limit limit = decision.limit();
    long quota = policy.algorithm().isBucket() ? limit.burst() : limit.permits();
    return decision.remaining() <= (long) Math.floor(quota * fraction);
  }
}
