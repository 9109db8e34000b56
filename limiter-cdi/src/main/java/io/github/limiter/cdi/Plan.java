package io.github.limiter.cdi;

import io.github.limiter.Policy;
import io.github.limiter.config.PolicyConfig;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

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
  private final List<Policy> policies;
  private final ToLongFunction<Policy> permitsFor = policy -> charge(policy).permits();
  private final Predicate<Policy> enforced = policy -> !charge(policy).config().dryRun();

  Plan(List<Charge> charges) {
    this.charges = charges.toArray(new Charge[0]);
    this.policies = charges.stream().map(Charge::policy).toList();
  }

  Charge[] charges() {
    return charges;
  }

  /** The policies of the charges, in order, for {@code Limiter.decideEach}. */
  List<Policy> policies() {
    return policies;
  }

  /** What a call costs under each policy, as the annotation or the configuration says. */
  ToLongFunction<Policy> permitsFor() {
    return permitsFor;
  }

  /** Which policies' rejections count: all but the dry-run ones. */
  Predicate<Policy> enforced() {
    return enforced;
  }

  /** The index of {@code policy} among the charges (a handful: a scan beats a map). */
  int indexOf(Policy policy) {
    for (int i = 0; i < charges.length; i++) {
      if (charges[i].policy() == policy) {
        return i;
      }
    }
    throw new IllegalArgumentException("not in this plan: " + policy.name());
  }

  private Charge charge(Policy policy) {
    return charges[indexOf(policy)];
  }
}
