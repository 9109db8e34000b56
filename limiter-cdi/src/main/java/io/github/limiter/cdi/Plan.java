package io.github.limiter.cdi;

import io.github.limiter.Policy;
import io.github.limiter.config.PolicyConfig;
import java.util.List;

/**
 * What the interceptor does for one method, worked out once: each policy with its key function and
 * cost. A running call only evaluates it.
 */
final class Plan {

  /** One policy to charge. */
  record Charge(PolicyConfig config, KeyFunction key, long permits) {
    Policy policy() {
      return config.policy();
    }
  }

  static final Plan NONE = new Plan(List.of());

  private final Charge[] charges;

  Plan(List<Charge> charges) {
    this.charges = charges.toArray(new Charge[0]);
  }

  Charge[] charges() {
    return charges;
  }
}
