package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.ManualClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyArbitraries;
import io.github.limiter.PolicyArbitraries.Step;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The guarantees each algorithm makes, over random traces and parameters, through the store on a
 * manual clock at hostile origins. Times below are store time: the reading less the origin.
 */
class InvariantsTest {

  /** An admitted request: when, how many permits, and (leaky bucket) when it departs. */
  record Admission(long at, long permits, long departs) {}

  record Case(Policy policy, long origin, List<Step> steps) {}

  static Arbitrary<Case> cases(Algorithm algorithm) {
    return PolicyArbitraries.policies(algorithm, 1).flatMap(policy -> Combinators.combine(
            PolicyArbitraries.origins(), PolicyArbitraries.steps(policy, 1, false, 20, 200))
        .as((origin, steps) -> new Case(policy, origin, steps)));
  }

  @Provide
  Arbitrary<Case> slidingLogs() {
    return cases(Algorithm.SLIDING_WINDOW_LOG);
  }

  @Provide
  Arbitrary<Case> tokenBuckets() {
    return cases(Algorithm.TOKEN_BUCKET);
  }

  @Provide
  Arbitrary<Case> fixedWindows() {
    return cases(Algorithm.FIXED_WINDOW);
  }

  @Provide
  Arbitrary<Case> leakyBuckets() {
    return cases(Algorithm.LEAKY_BUCKET);
  }

  static List<Admission> run(Case c) {
    ManualClock clock = ManualClock.at(c.origin());
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    List<Admission> admitted = new ArrayList<>();
    for (Step step : c.steps()) {
      long now = clock.advance(step.advance()) - c.origin();
      Decision d = store.decide(c.policy(), "k", step.permits());
      if (d.isAllowed()) {
        admitted.add(new Admission(now, step.permits(), now + d.delayNanos()));
      }
    }
    return admitted;
  }

  @Property(tries = 300, seed = "101")
  void theSlidingLogNeverAdmitsMoreThanNInAnyWindowOfWidthW(@ForAll("slidingLogs") Case c) {
    // Given random traces of N per W
    Limit limit = c.policy().limits().get(0);
    long w = limit.periodNanos();

    // When they run
    List<Admission> admitted = run(c);

    // Then every window (t - W, t] ending at an admission holds at most N permits
    for (Admission end : admitted) {
      long inWindow = admitted.stream()
          .filter(a -> a.at() <= end.at() && end.at() - a.at() < w)
          .mapToLong(Admission::permits)
          .sum();
      assertThat(inWindow).as("window ending at %s", end.at()).isLessThanOrEqualTo(limit.permits());
    }
  }

  @Property(tries = 300, seed = "202")
  void theTokenBucketNeverAdmitsMoreThanBPlusRTInAnyIntervalOfLengthT(@ForAll("tokenBuckets") Case c) {
    // Given random traces of rate r = permits/period and capacity b
    Limit limit = c.policy().limits().get(0);

    // When they run
    List<Admission> admitted = run(c);

    // Then for every interval [t_i, t_j]: admitted ≤ b + r·(t_j − t_i), compared exactly as
    // admitted·period ≤ b·period + permits·(t_j − t_i)
    BigInteger period = BigInteger.valueOf(limit.periodNanos());
    for (int i = 0; i < admitted.size(); i++) {
      long sum = 0;
      for (int j = i; j < admitted.size(); j++) {
        sum += admitted.get(j).permits();
        BigInteger span = BigInteger.valueOf(admitted.get(j).at() - admitted.get(i).at());
        BigInteger allowed = BigInteger.valueOf(limit.burst()).multiply(period)
            .add(BigInteger.valueOf(limit.permits()).multiply(span));
        assertThat(BigInteger.valueOf(sum).multiply(period))
            .as("[%s, %s]", admitted.get(i).at(), admitted.get(j).at())
            .isLessThanOrEqualTo(allowed);
      }
    }
  }

  @Property(tries = 300, seed = "303")
  void theFixedWindowAdmitsAtMostNPerAlignedWindow(@ForAll("fixedWindows") Case c) {
    // Given random traces; windows align to the store's creation
    Limit limit = c.policy().limits().get(0);

    // When they run
    List<Admission> admitted = run(c);

    // Then no aligned window [kW, (k+1)W) holds more than N permits
    Map<Long, Long> perWindow = new HashMap<>();
    for (Admission a : admitted) {
      perWindow.merge(Math.floorDiv(a.at(), limit.periodNanos()), a.permits(), Long::sum);
    }
    assertThat(perWindow.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(limit.permits()));
  }

  @Property(tries = 300, seed = "404")
  void leakyBucketDeparturesAreAtLeastOneIntervalPerPermitApart(@ForAll("leakyBuckets") Case c) {
    // Given random traces of a queue leaking at r
    Limit limit = c.policy().limits().get(0);
    long t = limit.intervalNanos();

    // When they run
    List<Admission> admitted = run(c);

    // Then each departure is its arrival plus the queue ahead plus its own work (GCRA; the queue
    // starts at the initial level when the key is first seen), so consecutive departures are k/r
    // apart for a request of k, and none is before its arrival
    long firstSeen = c.steps().get(0).advance();
    long queuedUntil = firstSeen + limit.initial().orElse(0) * t;
    long previous = Long.MIN_VALUE;
    for (Admission a : admitted) {
      long start = queuedUntil - a.at() > 0 ? queuedUntil : a.at();
      assertThat(a.departs()).isEqualTo(start + a.permits() * t);
      if (previous != Long.MIN_VALUE) {
        assertThat(a.departs() - previous).isGreaterThanOrEqualTo(a.permits() * t);
        // 1/r exactly: (departure gap)·permits ≥ k·period
        assertThat(BigInteger.valueOf(a.departs() - previous).multiply(BigInteger.valueOf(limit.permits())))
            .isGreaterThanOrEqualTo(BigInteger.valueOf(a.permits()).multiply(BigInteger.valueOf(limit.periodNanos())));
      }
      assertThat(a.departs() - a.at()).isPositive();
      queuedUntil = a.departs();
      previous = a.departs();
    }
  }
}
