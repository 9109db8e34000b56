package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * Fired for every call that the {@link Limited} policies admit, before it proceeds, with the
 * admission that has the fewest permits left. Nothing is fired when nobody observes it.
 *
 * @param policy the policy nearest to rejecting
 * @param decision its admission
 * @param key the client identity that policy counted, with its source prefix ({@code ip:}, {@code
 *     h:}, {@code p:}, {@code r:}, {@code a:}, or {@code c:global}); it may be a credential, so do
 *     not log it
 * @param method the intercepted method
 */
public record RateLimitAdmitted(Policy policy, Decision decision, String key, Method method) {

  public RateLimitAdmitted {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(method, "method");
  }
}
