package io.github.limiter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Random policies small enough that random traces reach every corner: N up to 20, periods of a few
 * thousand time units, where a unit is 1 ns, 1 µs or 1 ms.
 */
public final class PolicyArbitraries {

  private PolicyArbitraries() {}

  /** Clock origins: the hostile ones, some that wrap or cross zero within a trace, and random. */
  public static Arbitrary<Long> origins() {
    return Arbitraries.oneOf(
        Arbitraries.of(ManualClock.NEAR_MAX, Long.MAX_VALUE - 2_000, ManualClock.JUST_BELOW_ZERO, -5_000L,
            ManualClock.NEGATIVE),
        Arbitraries.longs());
  }

  public static Arbitrary<Long> units() {
    return Arbitraries.of(1L, 1_000L, 1_000_000L);
  }

  /** One limit for {@code algorithm}, with periods in multiples of {@code unit} ns. */
  public static Arbitrary<Limit> limit(Algorithm algorithm, long unit, boolean withInitial) {
    Arbitrary<Integer> permits = Arbitraries.integers().between(1, 20);
    return permits.flatMap(n -> {
      Arbitrary<Long> period = Arbitraries.longs().between(n, 5_000).map(p -> p * unit);
      if (!algorithm.isBucket()) {
        return period.map(p -> Limit.of(n, Duration.ofNanos(p)));
      }
      Arbitrary<Integer> burst = Arbitraries.integers().between(1, 20);
      return Combinators.combine(period, burst).flatAs((p, b) -> {
        Arbitrary<OptionalLong> initial = withInitial
            ? Arbitraries.longs().between(0, b).map(OptionalLong::of).injectNull(0.5)
                .map(x -> x == null ? OptionalLong.empty() : x)
            : Arbitraries.just(OptionalLong.empty());
        return initial.map(i -> new Limit(n, Duration.ofNanos(p), b, i));
      });
    });
  }

  /** Policies of every algorithm, with one limit or two. */
  public static Arbitrary<Policy> policies(boolean withInitial) {
    return Combinators.combine(Arbitraries.of(Algorithm.class), units(), Arbitraries.integers().between(1, 2))
        .flatAs((algorithm, unit, count) -> limit(algorithm, unit, withInitial).list().ofSize(count)
            .map(limits -> new Policy("p", algorithm, limits, FailureMode.FAIL_CLOSED)));
  }

  public static Arbitrary<Policy> policies(Algorithm algorithm, int limits) {
    return units().flatMap(unit -> limit(algorithm, unit, true).list().ofSize(limits)
        .map(l -> new Policy("p", algorithm, l, FailureMode.FAIL_CLOSED)));
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
      longest = Math.max(longest, Math.max(limit.periodNanos(), Math.multiplyExact(limit.burst(), limit.intervalNanos())));
    }
    return longest;
  }

  /** One step of a trace: wait {@code advance} ns, then ask for {@code permits} for key number {@code key}. */
  public record Step(long advance, int key, long permits, boolean refund) {}

  /**
   * Steps whose waits are mostly short (a fraction of the policy's periods) and now and then long,
   * with requests of 1 up to one more than the capacity.
   */
  public static Arbitrary<List<Step>> steps(Policy policy, int keys, boolean refunds, int maxSteps) {
    return steps(policy, keys, refunds, 1, maxSteps);
  }

  public static Arbitrary<List<Step>> steps(Policy policy, int keys, boolean refunds, int minSteps, int maxSteps) {
    long longest = longestPeriod(policy);
    long capacity = capacity(policy);
    Arbitrary<Long> advance = Arbitraries.oneOf(
        Arbitraries.just(0L),
        Arbitraries.longs().between(0, Math.max(1, longest / 8)),
        Arbitraries.longs().between(0, 2 * longest));
    Arbitrary<Long> permits = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.just(1L)),
        net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(1, capacity)),
        net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(1, capacity + 1)));
    Arbitrary<Boolean> refund = refunds ? Arbitraries.of(true, false, false, false, false, false) : Arbitraries.just(false);
    return Combinators.combine(advance, Arbitraries.integers().between(0, keys - 1), permits, refund)
        .as(Step::new)
        .list()
        .ofMinSize(minSteps)
        .ofMaxSize(maxSteps)
        .map(ArrayList::new);
  }
}
