package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * Fired (synchronously and to asynchronous observers) for every call a {@link Limited} policy
 * rejects, before {@link RateLimitExceededException} is thrown; also for a would-be rejection under
 * a dry-run policy, which lets the call pass. Nothing is fired when nobody observes it.
 *
 * @param policy the policy that rejected
 * @param decision the rejection
 * @param key the client identity the policy counted, with its source prefix ({@code ip:}, {@code
 *     h:}, {@code p:}, {@code r:}, {@code a:}, or {@code c:global}); it may be a credential (an API
 *     key), so do not log it verbatim
 * @param method the intercepted method
 * @param dryRun true if the policy is dry-run and the call was let through
 */
public record RateLimitRejected(
    Policy policy, Decision decision, String key, Method method, boolean dryRun) {

  public RateLimitRejected {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(method, "method");
  }
}
