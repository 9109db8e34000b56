package io.github.limiter.internal.live;

import io.github.limiter.Limit;
import io.github.limiter.Policy;

/**
 * One version of a policy: version 0 is the policy as deployed, and each change adds one.
 *
 * @param number the version number
 * @param policy the policy's value in this version
 */
public record PolicyVersion(long number, Policy policy) {

  /**
   * The limits of {@code policy} as configuration writes them, e.g. {@code 10/s burst=20, 1000/h}.
   */
  public static String text(Policy policy) {
    return String.join(", ", policy.limits().stream().map(Limit::toString).toList());
  }
}
