package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore.TimeSource;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The values a decision from the store carries, and refunds. */
class StoreDecisionsTest {

  static final long S = Duration.ofSeconds(1).toNanos();
  static final long H = Duration.ofHours(1).toNanos();

  final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  final InMemoryStore store = InMemoryStore.builder().clock(clock).build();

  @Test
  void aFreshKeyReportsNoResetWhenNothingIsCharged() {
    Policy policy = Policy.tokenBucket("tb", Limit.bucket(10, Duration.ofSeconds(1), 5));

    Decision tooBig = store.decide(policy, "k", 6);

    assertThat(tooBig.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
    assertThat(tooBig.resetAfterNanos()).isZero();
    assertThat(tooBig.remaining()).isEqualTo(5);
  }

  @Test
  void equalPoliciesShareTheirKeysAndEachOfManyPoliciesKeepsItsOwn() {
    // More policies than the store remembers by identity: each still decides on its own state.
    int policies = 200;
    for (int round = 0; round < 3; round++) {
      for (int p = 0; p < policies; p++) {
        Policy policy = Policy.tokenBucket("p" + p, Limit.bucket(1, Duration.ofHours(1), 3));
        // A new instance every time, equal to the first: the same table, so the same key's state
        Decision d = store.decide(policy, "k", 1);
        assertThat(d.remaining()).as("policy %s, round %s", p, round).isEqualTo(2 - round);
      }
    }
    Policy first = Policy.tokenBucket("p0", Limit.bucket(1, Duration.ofHours(1), 3));
    assertThat(store.decide(first, "k", 1).outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(store.bind(first).decide("k", 1).outcome()).isEqualTo(Outcome.LIMITED);
  }

  @Test
  void tokenBucketDecisionsCountDownAndResetAfterTheTimeToRefill() {
    Policy policy = Policy.tokenBucket("tb", Limit.bucket(10, Duration.ofSeconds(1), 5));

    Decision first = store.decide(policy, "k", 1);
    Decision three = store.decide(policy, "k", 3);

    assertThat(first.remaining()).isEqualTo(4);
    assertThat(first.resetAfterNanos()).isEqualTo(S / 10);
    assertThat(first.delayNanos()).isZero();
    assertThat(three.remaining()).isEqualTo(1);
    assertThat(three.resetAfterNanos()).isEqualTo(4 * S / 10);
  }

  @Test
  void leakyBucketDecisionsCarryTheDepartureDelay() {
    Policy policy = Policy.leakyBucket("lb", Limit.bucket(2, Duration.ofSeconds(1), 3));

    Decision first = store.decide(policy, "k", 1);
    Decision second = store.decide(policy, "k", 1);
    clock.advance(S / 4);
    Decision third = store.decide(policy, "k", 1);

    assertThat(first.delay()).isEqualTo(Duration.ofMillis(500));
    assertThat(second.delay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(third.delay()).isEqualTo(Duration.ofMillis(1250));
    assertThat(third.resetAfter()).isEqualTo(third.delay());
    // level 2.5 of 3: one more fits (level < capacity)
    assertThat(third.remaining()).isEqualTo(1);
  }

  @Test
  void aMultiLimitPolicyChargesNothingWhenOneLimitRejects() {
    // Given 10/s and 1000/h, as a sliding log: snapshot state
    Limit perSecond = Limit.of(10, Duration.ofSeconds(1));
    Limit perHour = Limit.of(1000, Duration.ofHours(1));
    Policy policy = Policy.slidingWindowLog("api", perSecond, perHour);
    for (int i = 0; i < 10; i++) {
      store.decide(policy, "k", 1);
    }

    // When 500 more are rejected by the 10/s, and a second later 10 are asked for again
    for (int i = 0; i < 500; i++) {
      assertThat(store.decide(policy, "k", 1).limit()).isEqualTo(perSecond);
    }
    clock.advance(S);
    Decision again = store.decide(policy, "k", 1);

    // Then the rejections charged nothing: the per-second limit binds with 9 left
    assertThat(again.isAllowed()).isTrue();
    assertThat(again.limit()).isEqualTo(perSecond);
    assertThat(again.remaining()).isEqualTo(9);
    assertThat(again.resetAfterNanos()).isEqualTo(S);
  }

  @Test
  void aMultiLimitPolicyReportsTheHourOnceItBinds() {
    // Given 10/s and 15/h as a sliding log
    Limit perSecond = Limit.of(10, Duration.ofSeconds(1));
    Limit perHour = Limit.of(15, Duration.ofHours(1));
    Policy policy = Policy.slidingWindowLog("api", perSecond, perHour);
    assertThat(store.decide(policy, "k", 10).isAllowed()).isTrue();
    assertThat(store.decide(policy, "k", 1).isAllowed()).isFalse();

    // When a second later 4, and then 2, are asked for
    clock.advance(S);
    Decision four = store.decide(policy, "k", 4);
    Decision two = store.decide(policy, "k", 2);

    // Then the hour had exactly 5 left (the rejection was not charged): 4 pass, 2 wait for the hour
    assertThat(four.remaining()).isEqualTo(1);
    assertThat(four.limit()).isEqualTo(perHour);
    assertThat(two.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(two.limit()).isEqualTo(perHour);
    assertThat(two.retryAfterNanos()).isEqualTo(H - S);
  }

  static Stream<Arguments> refundable() {
    Limit three = Limit.of(3, Duration.ofHours(1));
    return Stream.of(
        Arguments.of(Policy.tokenBucket("token-bucket", three)),
        Arguments.of(Policy.leakyBucket("leaky-bucket", three)),
        Arguments.of(Policy.fixedWindow("fixed-window", three)),
        Arguments.of(Policy.slidingWindowLog("sliding-log", three)),
        Arguments.of(Policy.slidingWindowCounter("sliding-counter", three)),
        Arguments.of(Policy.fixedWindow("multi-limit", three, Limit.of(5, Duration.ofDays(1)))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refundable")
  void refundGivesBackPermits(Policy policy) {
    // Given a key that used all 3 permits
    assertThat(store.decide(policy, "k", 3).isAllowed()).isTrue();
    assertThat(store.decide(policy, "k", 1).isAllowed()).isFalse();

    // When 2 are refunded
    store.refund(policy, "k", 2);

    // Then 2 can be admitted again, and not a third
    assertThat(store.decide(policy, "k", 2).isAllowed()).isTrue();
    assertThat(store.decide(policy, "k", 1).isAllowed()).isFalse();
  }

  @Test
  void refundingAnUnknownKeyCreatesNothing() {
    Policy policy = Policy.tokenBucket("tb", Limit.of(3, Duration.ofHours(1)));

    store.refund(policy, "nobody", 5);

    assertThat(store.size()).isZero();
  }

  @Test
  void theStoreSaysWhichClockItTrusts() {
    assertThat(store.timeSource()).isEqualTo(TimeSource.CALLER);
    assertThat(InMemoryStore.create().timeSource()).isEqualTo(TimeSource.LOCAL_MONOTONIC);
    assertThat(InMemoryStore.create().maxKeys()).isEqualTo(InMemoryStore.DEFAULT_MAX_KEYS);
    assertThat(store.health().up()).isTrue();
  }

  @Test
  void keysOfDifferentPoliciesAreIndependent() {
    Policy a = Policy.fixedWindow("a", Limit.of(1, Duration.ofHours(1)));
    Policy b = Policy.fixedWindow("b", Limit.of(1, Duration.ofHours(1)));

    assertThat(store.decide(a, "k", 1).isAllowed()).isTrue();
    assertThat(store.decide(b, "k", 1).isAllowed()).isTrue();
    assertThat(store.decide(a, "other", 1).isAllowed()).isTrue();
    assertThat(store.decide(a, "k", 1).isAllowed()).isFalse();
    assertThat(store.size()).isEqualTo(3);
  }
}
