package io.github.limiter.internal.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Leaky bucket (virtual queue, GCRA): admits while level &lt; capacity; an admitted request departs
 * at arrival + level_after / rate, reported as {@link Decision#delay()}.
 */
class LeakyBucketTest {

  /** Leaks 1 per second, capacity 3. */
  static final Limit LIMIT = Limit.bucket(1, Duration.ofSeconds(1), 3);

  static final long T = Duration.ofSeconds(1).toNanos();
  static final Policy QUEUE = Policy.leakyBucket("lb", LIMIT);

  static List<Long> origins() {
    return List.of(
        ManualClock.NEAR_MAX,
        Long.MAX_VALUE - T,
        ManualClock.JUST_BELOW_ZERO,
        ManualClock.NEGATIVE,
        -T,
        555_555_555_555_555L);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void admitsWhileTheLevelIsBelowCapacityAndSchedulesEachDeparture(long t0) {
    // Given an empty queue
    PureDriver key = new PureDriver(QUEUE, t0);

    // When four requests arrive at once
    Decision first = key.decide(t0);
    Decision second = key.decide(t0);
    Decision third = key.decide(t0);
    Decision fourth = key.decide(t0);

    // Then three pass, departing at t0 + 1/r, + 2/r, + 3/r; the fourth finds the level at capacity
    assertThat(List.of(first, second, third))
        .extracting(Decision::delay)
        .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));
    assertThat(List.of(first, second, third))
        .extracting(Decision::remaining)
        .containsExactly(2L, 1L, 0L);
    assertThat(third.resetAfterNanos()).isEqualTo(3 * T);
    assertThat(fourth.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(fourth.delayNanos()).isZero();
    // level 3 − 1 tick·r < 3 one tick later
    assertThat(fourth.retryAfterNanos()).isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void oneTickOfLeakAdmitsTheNextRequestBehindTheQueue(long t0) {
    // Given a queue at capacity
    PureDriver key = new PureDriver(QUEUE, t0);
    key.admitted(t0, 3);

    // When one tick has passed
    Decision admitted = key.decide(t0 + 1);

    // Then it is admitted, departing after the three queued ahead: at t0 + 4/r
    assertThat(admitted.isAllowed()).isTrue();
    assertThat(admitted.delayNanos()).isEqualTo(4 * T - 1);
    assertThat(key.decide(t0 + 1).retryAfterNanos()).isEqualTo(T);
  }

  @Test
  void departuresAreOneIntervalApartAfterIdleTimeToo() {
    // Given a request at 0 and another at 0.5 s
    PureDriver key = new PureDriver(QUEUE, 0);
    Decision a = key.decide(0);
    Decision b = key.decide(T / 2);

    // When the queue has drained (idle 10 s)
    Decision c = key.decide(10 * T);

    // Then b departs one interval after a, and c after a full interval of its own
    assertThat(0 + a.delayNanos()).isEqualTo(T);
    assertThat(T / 2 + b.delayNanos()).isEqualTo(2 * T);
    assertThat(c.delayNanos()).isEqualTo(T);
    assertThat(c.remaining()).isEqualTo(2);
  }

  @Test
  void theInitialLevelIsConfigurable() {
    // Given a queue that starts with 2 queued
    PureDriver key = new PureDriver(Policy.leakyBucket("lb2", LIMIT.withInitial(2)), 0);

    // When requests arrive at once
    Decision first = key.decide(0);
    Decision second = key.decide(0);

    // Then one fits (2 < 3), departing after the two ahead of it
    assertThat(first.delay()).isEqualTo(Duration.ofSeconds(3));
    assertThat(second.isAllowed()).isFalse();
  }

  // The documented multi-permit rule is level + k - 1 < capacity: a request of k is admitted when k
  // unit requests in a row would be, so the level after admission can reach capacity + 1 - 1 tick.
  @Test
  void aMultiPermitRequestIsAdmittedWhileLevelPlusPermitsMinusOneIsBelowCapacity() {
    // Given level 1 (one queued)
    PureDriver key = new PureDriver(QUEUE, 0);
    key.decide(0);

    // When 3 permits are asked (1 + 2 ≥ 3), then 2 (1 + 1 < 3)
    Decision three = key.decide(0, 3);
    Decision two = key.decide(0, 2);

    // Then 3 waits until level < 1 (one tick of leak), 2 passes and departs at 3/r
    assertThat(three.retryAfterNanos()).isEqualTo(1);
    assertThat(two.isAllowed()).isTrue();
    assertThat(two.delay()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aRequestCostingMoreThanTheCapacityCanNeverPass() {
    PureDriver key = new PureDriver(QUEUE, 0);

    Decision decision = key.decide(0, 4);

    assertThat(decision.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
    assertThat(decision.retryAfter()).isEmpty();
    assertThat(decision.remaining()).isEqualTo(3);
    assertThat(key.decide(0, 3).isAllowed()).isTrue();
  }

  @Test
  void rejectedRequestsNeverCount() {
    PureDriver key = new PureDriver(QUEUE, 0);
    key.admitted(0, 3);
    assertThat(key.admitted(0, 1000)).isZero();

    // level 3 − 1 tick: exactly one more fits, as if the rejections never happened
    assertThat(key.admitted(1, 10)).isEqualTo(1);
  }

  @Test
  void resetAfterIsTheTimeUntilTheQueueIsEmptyAndRefundShortensIt() {
    LeakyBucket f = new LeakyBucket(LIMIT);
    long tat = f.fresh(0);
    assertThat(f.resetAfter(tat, 0)).isZero();
    assertThat(f.delay(tat, 0)).isZero();

    tat = f.admit(tat, 0, 2);
    assertThat(f.resetAfter(tat, T / 2)).isEqualTo(2 * T - T / 2);

    long refunded = f.refund(tat, T / 2, 1);
    assertThat(f.resetAfter(refunded, T / 2)).isEqualTo(T - T / 2);
    assertThat(f.resetAfter(f.refund(refunded, T / 2, 5), T / 2)).isZero();
  }
}
