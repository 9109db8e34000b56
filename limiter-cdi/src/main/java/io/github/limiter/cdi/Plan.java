package io.github.limiter.cdi;

import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.internal.config.PolicyConfig;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;

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
  /** The charges' policies bound to the limiter; empty until {@link #boundTo}. */
  private final List<PolicyLimiter> limiters;
  private final IntToLongFunction permitsAt;
  private final IntPredicate enforcedAt;

  Plan(List<Charge> charges) {
    this(charges.toArray(new Charge[0]), List.of());
  }

  private Plan(Charge[] charges, List<PolicyLimiter> limiters) {
    this.charges = charges;
    this.limiters = limiters;
    this.permitsAt = i -> charges[i].permits();
    this.enforcedAt = i -> !charges[i].config().dryRun();
  }

  /** This plan deciding with {@code limiter}: each policy bound once. */
  Plan boundTo(Limiter limiter) {
    return new Plan(charges, Arrays.stream(charges).map(charge -> limiter.bind(charge.policy())).toList());
  }

  Charge[] charges() {
    return charges;
  }

  /** The bound policies of the charges, in order, for {@code Limiter.decideEach}. */
  List<PolicyLimiter> limiters() {
    if (limiters.size() != charges.length) {
      throw new IllegalStateException("a plan decides only once bound to a limiter");
    }
    return limiters;
  }

  /** What a call costs under the {@code i}th charge, as the annotation or the configuration says. */
  IntToLongFunction permitsAt() {
    return permitsAt;
  }

  /** Which charges' rejections count: all but the dry-run ones. */
  IntPredicate enforcedAt() {
    return enforcedAt;
  }
}
