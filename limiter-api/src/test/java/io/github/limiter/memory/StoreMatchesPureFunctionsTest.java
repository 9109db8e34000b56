package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.github.limiter.Cases;
import io.github.limiter.Decision;
import io.github.limiter.Gen;
import io.github.limiter.Policy;
import io.github.limiter.RandomPolicies;
import io.github.limiter.RandomPolicies.Step;
import io.github.limiter.internal.algorithm.PolicyFunction;
import io.github.limiter.tck.ManualClock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The in-memory store decides exactly as the pure functions do. The reference model drives {@link
 * PolicyFunction} directly: fresh, retryAfter, then admit or reject; refund for refunds. Time is
 * the clock's reading less its reading when the store was built.
 */
class StoreMatchesPureFunctionsTest {

  /** The reference: one state per key, never forgotten. */
  static final class Model {
    final PolicyFunction function;
    final Map<String, long[]> states = new HashMap<>();

    Model(Policy policy) {
      this.function = PolicyFunction.of(policy);
    }

    Decision decide(String key, long now, long permits) {
      long[] state = states.computeIfAbsent(key, k -> function.fresh(now));
      long retry = function.retryAfter(state, now, permits);
      return retry == 0
          ? function.admit(state, now, permits)
          : function.reject(state, now, permits, retry);
    }

    void refund(String key, long now, long permits) {
      long[] state = states.get(key);
      if (state != null) {
        function.adjust(state, now, -permits);
      }
    }
  }

  record Case(Policy policy, long origin, List<Step> steps) {}

  static Stream<Named<Case>> fewKeys() {
    // Few keys: no sweep ever runs, so initial tokens/levels of every kind are fair game.
    return Cases.random(
        4242,
        400,
        gen -> {
          Policy policy = RandomPolicies.policy(gen, true);
          return new Case(
              policy, RandomPolicies.origin(gen), RandomPolicies.steps(gen, policy, 4, true, 60));
        });
  }

  static Case manyKeys(Gen gen) {
    // Enough keys that the store sweeps and reclaims fresh ones while the model keeps them all.
    Policy policy = RandomPolicies.policy(gen, false);
    return new Case(
        policy, RandomPolicies.origin(gen), RandomPolicies.steps(gen, policy, 300, true, 300, 600));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fewKeys")
  void decidesExactlyAsThePureFunctionsForAFewKeys(Case c) {
    replay(c);
  }

  /** Every case, then a check that enough of them made the store reclaim keys to be worth it. */
  @TestFactory
  Stream<DynamicTest> decidesExactlyAsThePureFunctionsWhileReclaimingFreshKeys() {
    int count = 60;
    AtomicInteger reclaimed = new AtomicInteger();
    Stream<DynamicTest> properties =
        Cases.random(31337, count, StoreMatchesPureFunctionsTest::manyKeys)
            .map(
                c ->
                    dynamicTest(
                        c.getName(),
                        () -> {
                          InMemoryStore store = replay(c.getPayload());
                          if (store.size() < distinctKeys(c.getPayload())) {
                            reclaimed.incrementAndGet();
                          }
                        }));
    if (Cases.replaying()) {
      return properties;
    }
    DynamicTest coverage =
        dynamicTest(
            "the store reclaimed keys in at least 30% of the cases",
            () ->
                assertThat(reclaimed.get() * 100)
                    .as("%s of %s cases reclaimed", reclaimed, count)
                    .isGreaterThanOrEqualTo(30 * count));
    return Stream.concat(properties, Stream.of(coverage));
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
