package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Cases;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Gen;
import io.github.limiter.Policy;
import io.github.limiter.RandomPolicies;
import io.github.limiter.RandomPolicies.Step;
import io.github.limiter.tck.ManualClock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every algorithm and for multi-limit policies: from a random state, a rejected request retried
 * exactly at {@code retryAfter} is admitted, and one tick before it is rejected, with one tick to
 * wait. Through {@link InMemoryStore} on a manual clock at hostile origins.
 */
class RetryAfterIsExactTest {

  record Case(Policy policy, long origin, List<Step> trace, long permits) {}

  /**
   * A policy of any algorithm, a trace of up to 40 steps for one key, and a request that fits the
   * capacity.
   */
  static Case aCase(Gen gen) {
    Policy policy = RandomPolicies.policy(gen, true);
    return new Case(
        policy,
        RandomPolicies.origin(gen),
        RandomPolicies.steps(gen, policy, 1, false, 40),
        gen.between(1, RandomPolicies.capacity(policy)));
  }

  static Stream<Named<Case>> retries() {
    return Cases.random(20240611, 1500, RetryAfterIsExactTest::aCase);
  }

  static Stream<Named<Case>> oversized() {
    return Cases.random(777, 300, RetryAfterIsExactTest::aCase);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("retries")
  void aRetryExactlyAtRetryAfterIsAdmittedAndOneTickBeforeIsNot(Case c) {
    // Given a key brought to a random state by a random trace
    ManualClock clock = ManualClock.at(c.origin());
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    for (Step step : c.trace()) {
      clock.advance(step.advance());
      Decision d = store.decide(c.policy(), "k", step.permits());
      assertThat(d.outcome()).isNotEqualTo(Outcome.UNAVAILABLE);
    }

    // When the same request is repeated until it is rejected (it fits the capacity, so it will be)
    Decision rejected = store.decide(c.policy(), "k", c.permits());
    for (long i = 0; rejected.isAllowed(); i++) {
      assertThat(i)
          .as("admissions without time passing")
          .isLessThanOrEqualTo(RandomPolicies.capacity(c.policy()));
      rejected = store.decide(c.policy(), "k", c.permits());
    }
    long retry = rejected.retryAfterNanos();

    // Then it is a plain limit, and the retry time is exact to the tick
    assertThat(rejected.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(rejected.retryAfter())
        .hasValueSatisfying(d -> assertThat(d.toNanos()).isEqualTo(retry));
    assertThat(retry).isPositive();
    clock.advance(retry - 1);
    Decision early = store.decide(c.policy(), "k", c.permits());
    assertThat(early.isAllowed()).as("one tick before retryAfter %s: %s", retry, early).isFalse();
    assertThat(early.retryAfterNanos()).isEqualTo(1);
    clock.advance(1);
    Decision onTime = store.decide(c.policy(), "k", c.permits());
    assertThat(onTime.isAllowed()).as("at retryAfter %s: %s", retry, onTime).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("oversized")
  void aRequestBeyondTheCapacityIsNeverPromisedATime(Case c) {
    // Given a key in a random state
    ManualClock clock = ManualClock.at(c.origin());
    InMemoryStore store = InMemoryStore.builder().clock(clock).build();
    for (Step step : c.trace()) {
      clock.advance(step.advance());
      store.decide(c.policy(), "k", step.permits());
    }

    // When a request costs one more than the smallest capacity
    Decision decision = store.decide(c.policy(), "k", RandomPolicies.capacity(c.policy()) + 1);

    // Then it exceeds the capacity and has no retry time
    assertThat(decision.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
    assertThat(decision.retryAfter()).isEmpty();
    assertThat(decision.isAllowed()).isFalse();
  }
}
