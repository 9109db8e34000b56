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
 * Token bucket of rate r and capacity b: admits while tokens &ge; permits; full unless told
 * otherwise.
 */
class TokenBucketTest {

  /** r = 10/s (one token per 100 ms), b = 5. */
  static final Limit LIMIT = Limit.bucket(10, Duration.ofSeconds(1), 5);

  static final long T = Duration.ofMillis(100).toNanos();
  static final Policy BUCKET = Policy.tokenBucket("tb", LIMIT);

  static List<Long> origins() {
    return List.of(
        ManualClock.NEAR_MAX,
        Long.MAX_VALUE - T / 2,
        ManualClock.JUST_BELOW_ZERO,
        ManualClock.NEGATIVE,
        -T / 2,
        123_456_789_123_456L);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void aNewKeyHasAFullBucketThenRefillsOneTokenPerInterval(long t0) {
    // Given a new key
    PureDriver key = new PureDriver(BUCKET, t0);

    // When b + 1 requests arrive at once
    int burst = key.admitted(t0, 5);
    Decision empty = key.decide(t0);

    // Then b pass and the next waits exactly one interval; one tick early is still too early
    assertThat(burst).isEqualTo(5);
    assertThat(empty.retryAfterNanos()).isEqualTo(T);
    assertThat(key.decide(t0 + T - 1).retryAfterNanos()).isEqualTo(1);
    assertThat(key.decide(t0 + T).isAllowed()).isTrue();
    assertThat(key.decide(t0 + T).isAllowed()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("origins")
  void tokensNeverExceedTheCapacity(long t0) {
    // Given an emptied bucket, idle for an hour (far more than b intervals)
    PureDriver key = new PureDriver(BUCKET, t0);
    key.admitted(t0, 5);
    long later = t0 + Duration.ofHours(1).toNanos();

    // When a burst arrives
    int admitted = key.admitted(later, 100);

    // Then only b pass
    assertThat(admitted).isEqualTo(5);
  }

  @Test
  void fractionalTokensCountInNanoseconds() {
    // Given an empty bucket, half an interval later (0.5 tokens)
    PureDriver key = new PureDriver(BUCKET, 0);
    key.admitted(0, 5);

    // When 1 permit, and then 3 permits, are asked for
    Decision one = key.decide(T / 2);
    Decision three = key.decide(T / 2, 3);

    // Then each waits for exactly its missing fraction
    assertThat(one.retryAfterNanos()).isEqualTo(T / 2);
    assertThat(three.retryAfterNanos()).isEqualTo(3 * T - T / 2);
    assertThat(key.decide(3 * T - 1, 3).isAllowed()).isFalse();
    assertThat(key.decide(3 * T, 3).isAllowed()).isTrue();
    assertThat(key.decide(3 * T, 1).isAllowed()).isFalse();
  }

  @Test
  void initialTokensAreConfigurable() {
    // Given buckets that start empty and with 2 tokens
    PureDriver empty = new PureDriver(Policy.tokenBucket("tb0", LIMIT.withInitial(0)), 0);
    PureDriver two = new PureDriver(Policy.tokenBucket("tb2", LIMIT.withInitial(2)), 0);

    // When requests arrive at once
    Decision first = empty.decide(0);
    int fromTwo = two.admitted(0, 10);

    // Then the empty one waits an interval, the other admits exactly 2
    assertThat(first.retryAfterNanos()).isEqualTo(T);
    assertThat(fromTwo).isEqualTo(2);
  }

  @Test
  void remainingAndResetAfterDescribeTheBucket() {
    // Given a new key (full: fresh)
    TokenBucket f = new TokenBucket(LIMIT);
    long state = f.fresh(0);
    assertThat(f.resetAfter(state, 0)).isZero();
    assertThat(f.remaining(state, 0)).isEqualTo(5);

    // When 3 are taken
    state = f.admit(state, 0, 3);

    // Then 2 remain, and it is full again after 3 intervals
    assertThat(f.remaining(state, 0)).isEqualTo(2);
    assertThat(f.resetAfter(state, 0)).isEqualTo(3 * T);
    assertThat(f.remaining(state, T + T / 2)).isEqualTo(3);
    assertThat(f.resetAfter(state, 3 * T)).isZero();
  }

  @Test
  void rejectedRequestsNeverCount() {
    PureDriver key = new PureDriver(BUCKET, 0);
    key.admitted(0, 5);
    assertThat(key.admitted(T - 1, 1000)).isZero();

    assertThat(key.admitted(T, 10)).isEqualTo(1);
  }

  @Test
  void aRequestCostingMoreThanTheCapacityCanNeverPass() {
    PureDriver key = new PureDriver(BUCKET, 0);

    Decision decision = key.decide(0, 6);

    assertThat(decision.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
    assertThat(decision.retryAfter()).isEmpty();
    assertThat(key.decide(0, 5).isAllowed()).isTrue();
  }

  @Test
  void refundGivesTokensBackUpToTheCapacity() {
    TokenBucket f = new TokenBucket(LIMIT);
    long state = f.admit(f.fresh(0), 0, 4);

    long back = f.refund(state, 0, 3);
    long overfull = f.refund(back, 0, 100);

    assertThat(f.remaining(back, 0)).isEqualTo(4);
    assertThat(f.remaining(overfull, 0)).isEqualTo(5);
    assertThat(f.resetAfter(overfull, 0)).isZero();
  }

  @Test
  void aRateThatDoesNotDivideThePeriodRoundsTheIntervalUpNeverAdmittingMore() {
    // Given 3 per second: 333_333_333.3 ns per token, rounded up
    Limit three = Limit.of(3, Duration.ofSeconds(1));
    PureDriver key = new PureDriver(Policy.tokenBucket("tb3", three), 0);
    key.admitted(0, 3);

    // When a second has passed
    Decision oneSecond = key.decide(Duration.ofSeconds(1).toNanos(), 3);

    // Then 3 tokens are not quite back: 2 ns are missing
    assertThat(three.intervalNanos()).isEqualTo(333_333_334L);
    assertThat(oneSecond.retryAfterNanos()).isEqualTo(2);
  }
}
