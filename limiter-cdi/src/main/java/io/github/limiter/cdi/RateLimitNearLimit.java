package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * Fired for an admitted call that leaves few permits: at most {@code limiter.events.near-limit} (a
 * fraction, default 0.1) of the limit's quota. Fired on every such call, not only the first.
 * Nothing is fired when nobody observes it.
 *
 * @param policy the policy nearest to rejecting
 * @param decision its admission; {@link Decision#remaining()} is what is left
 * @param key the client identity that policy counted, with its source prefix ({@code ip:}, {@code
 *     h:}, {@code p:}, {@code r:}, {@code a:}, or {@code c:global}); it may be a credential, so do
 *     not log it
 * @param method the intercepted method
 */
public record RateLimitNearLimit(Policy policy, Decision decision, String key, Method method) {

  public RateLimitNearLimit {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(method, "method");
  }
}
