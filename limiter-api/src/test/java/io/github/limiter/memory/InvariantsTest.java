package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Cases;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RandomPolicies;
import io.github.limiter.RandomPolicies.Step;
import io.github.limiter.tck.ManualClock;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The guarantees each algorithm makes, over random traces and parameters, through the store on a
 * manual clock at hostile origins. Times below are store time: the reading less the origin.
 */
class InvariantsTest {

  /** An admitted request: when, how many permits, and (leaky bucket) when it departs. */
  record Admission(long at, long permits, long departs) {}

  record Case(Policy policy, long origin, List<Step> steps) {}

  /**
   * 300 cases from {@code seed}: one limit of {@code algorithm}, a trace of 20 to 200 steps for one
   * key.
   */
  static Stream<Named<Case>> cases(long seed, Algorithm algorithm) {
    return Cases.random(
        seed,
        300,
        gen -> {
          Policy policy = RandomPolicies.policy(gen, algorithm, 1);
          return new Case(
              policy,
              RandomPolicies.origin(gen),
              RandomPolicies.steps(gen, policy, 1, false, 20, 200));
        });
  }

  static Stream<Named<Case>> slidingLogs() {
    return cases(101, Algorithm.SLIDING_WINDOW_LOG);
  }

  static Stream<Named<Case>> tokenBuckets() {
    return cases(202, Algorithm.TOKEN_BUCKET);
  }

  static Stream<Named<Case>> fixedWindows() {
    return cases(303, Algorithm.FIXED_WINDOW);
  }

  static Stream<Named<Case>> leakyBuckets() {
    return cases(404, Algorithm.LEAKY_BUCKET);
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

  @ParameterizedTest(name = "{0}")
  @MethodSource("slidingLogs")
  void theSlidingLogNeverAdmitsMoreThanNInAnyWindowOfWidthW(Case c) {
    // Given random traces of N per W
    Limit limit = c.policy().limits().get(0);
    long w = limit.periodNanos();

    // When they run
    List<Admission> admitted = run(c);

    // Then every window (t - W, t] ending at an admission holds at most N permits
    for (Admission end : admitted) {
      long inWindow =
          admitted.stream()
              .filter(a -> a.at() <= end.at() && end.at() - a.at() < w)
              .mapToLong(Admission::permits)
              .sum();
      assertThat(inWindow).as("window ending at %s", end.at()).isLessThanOrEqualTo(limit.permits());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tokenBuckets")
  void theTokenBucketNeverAdmitsMoreThanBPlusRTInAnyIntervalOfLengthT(Case c) {
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
        BigInteger allowed =
            BigInteger.valueOf(limit.burst())
                .multiply(period)
                .add(BigInteger.valueOf(limit.permits()).multiply(span));
        assertThat(BigInteger.valueOf(sum).multiply(period))
            .as("[%s, %s]", admitted.get(i).at(), admitted.get(j).at())
            .isLessThanOrEqualTo(allowed);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixedWindows")
  void theFixedWindowAdmitsAtMostNPerAlignedWindow(Case c) {
    // Given random traces; windows align to the store's creation
    Limit limit = c.policy().limits().get(0);

    // When they run
    List<Admission> admitted = run(c);

    // Then no aligned window [kW, (k+1)W) holds more than N permits
    Map<Long, Long> perWindow = new HashMap<>();
    for (Admission a : admitted) {
      perWindow.merge(Math.floorDiv(a.at(), limit.periodNanos()), a.permits(), Long::sum);
    }
    assertThat(perWindow.values())
        .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(limit.permits()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("leakyBuckets")
  void leakyBucketDeparturesAreAtLeastOneIntervalPerPermitApart(Case c) {
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
        assertThat(
                BigInteger.valueOf(a.departs() - previous)
                    .multiply(BigInteger.valueOf(limit.permits())))
            .isGreaterThanOrEqualTo(
                BigInteger.valueOf(a.permits()).multiply(BigInteger.valueOf(limit.periodNanos())));
      }
      assertThat(a.departs() - a.at()).isPositive();
      queuedUntil = a.departs();
      previous = a.departs();
    }
  }
}
