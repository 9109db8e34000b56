package io.github.limiter;

import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * Random policies small enough that random traces reach every corner: N up to 20, periods of a few
 * thousand time units, where a unit is 1 ns, 1 µs or 1 ms.
 */
public final class RandomPolicies {

  private RandomPolicies() {}

  /**
   * A clock origin: half the time a hostile one (some wrap or cross zero within a trace), else any
   * long.
   */
  public static long origin(Gen gen) {
    if (gen.chance(0.5)) {
      return gen.oneOf(
          ManualClock.NEAR_MAX,
          Long.MAX_VALUE - 2_000,
          ManualClock.JUST_BELOW_ZERO,
          -5_000L,
          ManualClock.NEGATIVE);
    }
    return gen.anyLong();
  }

  public static long unit(Gen gen) {
    return gen.oneOf(1L, 1_000L, 1_000_000L);
  }

  /** One limit for {@code algorithm}, with periods in multiples of {@code unit} ns. */
  public static Limit limit(Gen gen, Algorithm algorithm, long unit, boolean withInitial) {
    int n = gen.between(1, 20);
    long period = gen.between(n, 5_000) * unit;
    if (!algorithm.isBucket()) {
      return Limit.of(n, Duration.ofNanos(period));
    }
    int burst = gen.between(1, 20);
    OptionalLong initial =
        withInitial && gen.chance(0.5)
            ? OptionalLong.of(gen.between(0, burst))
            : OptionalLong.empty();
    return new Limit(n, Duration.ofNanos(period), burst, initial);
  }

  /**
   * The algorithms whose permits come back with time, in their declared order, so that the seeded
   * cases stay what they were. A concurrency limit never refills: its own tests cover it.
   */
  public static final Algorithm[] RATES =
      Arrays.stream(Algorithm.values())
          .filter(a -> a != Algorithm.CONCURRENCY)
          .toArray(Algorithm[]::new);

  /** A policy of any rate algorithm, with one limit or two. */
  public static Policy policy(Gen gen, boolean withInitial) {
    Algorithm algorithm = gen.oneOf(RATES);
    return policy(gen, algorithm, gen.uniform(1, 2), withInitial);
  }

  /**
   * A policy of {@code algorithm} with {@code limits} limits, which may start with initial
   * tokens/levels.
   */
  public static Policy policy(Gen gen, Algorithm algorithm, int limits) {
    return policy(gen, algorithm, limits, true);
  }

  private static Policy policy(Gen gen, Algorithm algorithm, int count, boolean withInitial) {
    long unit = unit(gen);
    List<Limit> limits = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      limits.add(limit(gen, algorithm, unit, withInitial));
    }
    return new Policy("p", algorithm, limits, FailureMode.FAIL_CLOSED);
  }

  /** The most permits every limit of {@code policy} can ever admit at once. */
  public static long capacity(Policy policy) {
    long capacity = Long.MAX_VALUE;
    for (Limit limit : policy.limits()) {
      capacity = Math.min(capacity, limit.burst());
    }
    return capacity;
  }

  /** The largest period of the policy, in ns. */
  public static long longestPeriod(Policy policy) {
    long longest = 0;
    for (Limit limit : policy.limits()) {
      longest =
          Math.max(
              longest,
              Math.max(
                  limit.periodNanos(), Math.multiplyExact(limit.burst(), limit.intervalNanos())));
    }
    return longest;
  }

  /**
   * One step of a trace: wait {@code advance} ns, then ask for {@code permits} for key number
   * {@code key}.
   */
  public record Step(long advance, int key, long permits, boolean refund) {}

  /**
   * Steps whose waits are mostly short (a fraction of the policy's periods) and now and then long,
   * with requests of 1 up to one more than the capacity.
   */
  public static List<Step> steps(Gen gen, Policy policy, int keys, boolean refunds, int maxSteps) {
    return steps(gen, policy, keys, refunds, 1, maxSteps);
  }

  public static List<Step> steps(
      Gen gen, Policy policy, int keys, boolean refunds, int minSteps, int maxSteps) {
    long longest = longestPeriod(policy);
    long capacity = capacity(policy);
    return gen.list(
        minSteps,
        maxSteps,
        () -> {
          long advance =
              switch (gen.uniform(0, 2)) {
                case 0 -> 0L;
                case 1 -> gen.between(0, Math.max(1, longest / 8));
                default -> gen.between(0, 2 * longest);
              };
          int key = gen.uniform(0, keys - 1);
          // 6 in 10 ask for one permit, 3 for up to the capacity, 1 for up to one more than the
          // capacity
          int weight = gen.uniform(1, 10);
          long permits =
              weight <= 6
                  ? 1
                  : weight <= 9 ? gen.between(1, capacity) : gen.between(1, capacity + 1);
          boolean refund = refunds && gen.uniform(1, 6) == 1;
          return new Step(advance, key, permits, refund);
        });
  }
}
