package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.PolicyConfig;

/**
 * One policy as an adapter applies it at one place (a route, a method): where its key comes from
 * and what a request costs. The seam for plans and request costs: both are answers of this rule.
 */
public record Rule(PolicyConfig config, KeyFunction key, long permits) {

  public Policy policy() {
    return config.policy();
  }

  public String name() {
    return config.name();
  }

  public boolean dryRun() {
    return config.dryRun();
  }

  /**
   * How long an admission under this rule waits for its leaky-bucket departure; 0 if it does not.
   */
  public long waitNanos(Decision decision) {
    return config.dryRun() ? 0 : config.shaping().waitNanos(decision, permits);
  }
}
