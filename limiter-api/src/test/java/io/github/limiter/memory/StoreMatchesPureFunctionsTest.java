package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.ManualClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyArbitraries;
import io.github.limiter.PolicyArbitraries.Step;
import io.github.limiter.algorithm.PolicyFunction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

/**
 * The in-memory store decides exactly as the pure functions do. The reference model drives {@link
 * PolicyFunction} directly: fresh, retryAfter, then admit or reject; refund for refunds. Time is the
 * clock's reading less its reading when the store was built.
 */
class StoreMatchesPureFunctionsTest {

  /** The reference: one state per key, never forgotten. */
  static final class Model {
    final PolicyFunction function;
    final Map<String, long[]> states = new HashMap<>();

    Model(Policy policy) {
      this.function = policy.function();
    }

    Decision decide(String key, long now, long permits) {
      long[] state = states.computeIfAbsent(key, k -> function.fresh(now));
      long retry = function.retryAfter(state, now, permits);
      return retry == 0 ? function.admit(state, now, permits) : function.reject(state, now, permits, retry);
    }

    void refund(String key, long now, long permits) {
      long[] state = states.get(key);
      if (state != null) {
        function.refund(state, now, permits);
      }
    }
  }

  record Case(Policy policy, long origin, List<Step> steps) {}

  @Provide
  Arbitrary<Case> fewKeys() {
    // Few keys: no sweep ever runs, so initial tokens/levels of every kind are fair game.
    return PolicyArbitraries.policies(true).flatMap(policy -> Combinators.combine(
            PolicyArbitraries.origins(), PolicyArbitraries.steps(policy, 4, true, 60))
        .as((origin, steps) -> new Case(policy, origin, steps)));
  }

  @Provide
  Arbitrary<Case> manyKeys() {
    // Enough keys that the store sweeps and reclaims fresh ones while the model keeps them all.
    return PolicyArbitraries.policies(false).flatMap(policy -> Combinators.combine(
            PolicyArbitraries.origins(), PolicyArbitraries.steps(policy, 300, true, 300, 600))
        .as((origin, steps) -> new Case(policy, origin, steps)));
  }

  @Property(tries = 400, seed = "4242")
  void decidesExactlyAsThePureFunctionsForAFewKeys(@ForAll("fewKeys") Case c) {
    replay(c);
  }

  @Property(tries = 60, seed = "31337")
  @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
  void decidesExactlyAsThePureFunctionsWhileReclaimingFreshKeys(@ForAll("manyKeys") Case c) {
    InMemoryStore store = replay(c);
    Statistics.label("reclaimed").collect(store.size() < distinctKeys(c));
    Statistics.label("reclaimed").coverage(check -> check.check(true).percentage(p -> p >= 30));
  }

  private static long distinctKeys(Case c) {
    return c.steps().stream().filter(s -> !s.refund()).map(Step::key).distinct().count();
  }

  private static InMemoryStore replay(Case c) {
    // Given a store and the model on the same clock
    ManualClock clock = ManualClock.at(c.origin());
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    Model model = new Model(c.policy());

    for (Step step : c.steps()) {
      // When a step happens
      long reading = clock.advance(step.advance());
      long now = reading - c.origin();
      String key = "key-" + step.key();
      if (step.refund()) {
        store.refund(c.policy(), key, step.permits());
        model.refund(key, now, step.permits());
        continue;
      }
      Decision expected = model.decide(key, now, step.permits());
      Decision actual = store.decide(c.policy(), key, step.permits());

      // Then the store's decision equals the model's in every field
      assertThat(actual).as("at %s for %s after %s", now, key, step).isEqualTo(expected);
    }
    return store;
  }
}
