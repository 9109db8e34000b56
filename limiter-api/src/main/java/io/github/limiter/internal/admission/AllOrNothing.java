package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.PolicyLimiter;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;

/**
 * One request under several bound policies, all or nothing: what the admission step decides with.
 */
public final class AllOrNothing {

  private AllOrNothing() {}

  /**
   * Decides a request that every one of {@code policies} must admit, one permit each, all enforced.
   */
  public static Decisions decideEach(List<PolicyLimiter> policies, IntFunction<String> keyAt) {
    return decideEach(policies, keyAt, i -> 1, i -> true);
  }

  /**
   * Decides a request under each of {@code policies} in turn: the {@code i}th with the key {@code
   * keyAt(i)} and the permits {@code permitsAt(i)}. A policy whose key is null is skipped (not
   * decided, nothing charged). The first rejection by an enforced policy ({@code enforcedAt(i)})
   * ends the walk: the permits already charged for this request are given back, and it is the
   * {@link Decisions#rejection()}. A rejection by a policy that is not enforced (dry run) is kept
   * and the walk goes on; it charged nothing. If deciding throws (a store, a key function), what
   * was charged is given back too.
   *
   * <p>One policy costs one {@link Decisions} object on top of its decision.
   *
   * @throws IllegalArgumentException if some {@code permits} is below 1
   */
  public static Decisions decideEach(
      List<PolicyLimiter> policies,
      IntFunction<String> keyAt,
      IntToLongFunction permitsAt,
      IntPredicate enforcedAt) {
    int n = policies.size();
    if (n == 0) {
      return Decisions.empty();
    }
    if (n == 1) {
      String key = keyAt.apply(0);
      return key == null
          ? Decisions.ofOne(null, true)
          : Decisions.ofOne(
              policies.get(0).decide(key, permitsAt.applyAsLong(0)), enforcedAt.test(0));
    }
    Decision[] each = new Decision[n];
    // The keys and permits of what was charged, to give back on a rejection or a failure.
    String[] charged = new String[n];
    long[] permits = new long[n];
    try {
      for (int i = 0; i < n; i++) {
        String key = keyAt.apply(i);
        if (key == null) {
          continue;
        }
        long cost = permitsAt.applyAsLong(i);
        Decision decision = policies.get(i).decide(key, cost);
        each[i] = decision;
        if (decision.isAllowed()) {
          charged[i] = key;
          permits[i] = cost;
        } else if (enforcedAt.test(i)) {
          refund(policies, charged, permits, i);
          return Decisions.of(each, i);
        }
      }
    } catch (RuntimeException | Error e) {
      refund(policies, charged, permits, n);
      throw e;
    }
    return Decisions.of(each, -1);
  }

  private static void refund(
      List<PolicyLimiter> policies, String[] charged, long[] permits, int upTo) {
    for (int j = 0; j < upTo; j++) {
      if (charged[j] != null) {
        policies.get(j).refund(charged[j], permits[j]);
        charged[j] = null;
      }
    }
  }
}
