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
 * Sliding window counter: admits while {@code prev·(1 − elapsed/W) + curr < N}, and k permits while
 * {@code est + k − 1 < N}. W = 1000 ns keeps the fractions exact and easy to follow.
 */
class SlidingWindowCounterTest {

  static final long W = 1000;
  static final Policy TEN_PER_W =
      Policy.slidingWindowCounter("swc", Limit.of(10, Duration.ofNanos(W)));

  static List<Long> origins() {
    return ManualClock.hostileOrigins(11);
  }

  static long windowStart(long t) {
    return t - Math.floorMod(t, W);
  }

  /** A key whose previous window (starting at {@code start - W}) holds {@code prev} admissions. */
  static PureDriver withPrevious(long start, int prev) {
    PureDriver key = new PureDriver(TEN_PER_W, start - W);
    assertThat(key.admitted(start - W, prev)).isEqualTo(prev);
    return key;
  }

  @ParameterizedTest
  @MethodSource("origins")
  void halfwayThroughTheWindowAFullPreviousWindowWeighsHalf(long origin) {
    // Given 10 admitted in the previous window
    long start = windowStart(origin);
    PureDriver key = withPrevious(start, 10);

    // When requests arrive halfway through the current window: est = 10·0.5 + curr
    int admitted = key.admitted(start + W / 2, 20);

    // Then exactly 5 pass: 5 + 4 < 10, but 5 + 5 is not
    assertThat(admitted).isEqualTo(5);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void theEstimateIsComparedExactlyEvenWhenItIsFractional(long origin) {
    // Given 3 in the previous window and 7 in the current one at its start: est = 3 + 7 = 10
    long start = windowStart(origin);
    PureDriver key = withPrevious(start, 3);
    assertThat(key.admitted(start, 8)).isEqualTo(7);

    // When asking at the start, and one tick later: est = 3·(999/1000) + 7 = 9.997
    Decision atStart = key.decide(start);
    Decision oneTickLater = key.decide(start + 1);

    // Then the first waits exactly one tick, and the second passes
    assertThat(atStart.isAllowed()).isFalse();
    assertThat(atStart.retryAfterNanos()).isEqualTo(1);
    assertThat(oneTickLater.isAllowed()).isTrue();
  }

  @Test
  void aFullCurrentWindowWaitsForTheNextWindowAndItsDecay() {
    // Given 10 admitted at the start of a window (no previous)
    PureDriver key = new PureDriver(TEN_PER_W, 0);
    assertThat(key.admitted(0, 10)).isEqualTo(10);

    // When asking again: in the next window est = 10·(1 − e/W) < 10 needs e ≥ 1
    Decision rejected = key.decide(500);

    // Then the wait is to the next window plus one tick
    assertThat(rejected.retryAfterNanos()).isEqualTo(W - 500 + 1);
    assertThat(key.decide(W).isAllowed()).isFalse();
    assertThat(key.decide(W + 1).isAllowed()).isTrue();
  }

  @Test
  void rejectedRequestsNeverCount() {
    // Given a full window that sees many rejections
    PureDriver key = new PureDriver(TEN_PER_W, 0);
    key.admitted(0, 10);
    assertThat(key.admitted(1, 500)).isZero();

    // When two windows later (previous and current both empty)
    int admitted = key.admitted(2 * W, 20);

    // Then N are admitted again
    assertThat(admitted).isEqualTo(10);
  }

  // The documented multi-permit rule is est + k - 1 < N, so the estimate after an admission can
  // exceed N by less than one permit (as a unit request at est = N - 0.5 does). Tested as
  // documented.
  @Test
  void aMultiPermitRequestIsAdmittedWhileEstimatePlusPermitsMinusOneIsBelowN() {
    // Given est = 5·0.7 + 5 = 8.5 (prev 5, curr 5, elapsed 0.3 W)
    PureDriver key = withPrevious(0, 5);
    assertThat(key.decide(0, 5).isAllowed()).isTrue();
    long now = 300;

    // When asking for 3 (8.5 + 2 ≥ 10) and for 2 (8.5 + 1 < 10)
    Decision three = key.decide(now, 3);
    Decision two = key.decide(now, 2);

    // Then 3 waits, 2 passes
    assertThat(three.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(two.isAllowed()).isTrue();
  }

  @Test
  void aRequestCostingMoreThanNCanNeverPass() {
    PureDriver key = new PureDriver(TEN_PER_W, 0);

    Decision decision = key.decide(0, 11);

    assertThat(decision.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
    assertThat(decision.retryAfter()).isEmpty();
    assertThat(key.decide(0, 10).isAllowed()).isTrue();
  }

  @Test
  void remainingIsTheNumberOfUnitRequestsThatWouldPassNow() {
    // Given prev 3, and at the start of the window (est = 3)
    PureDriver key = withPrevious(0, 3);

    // When one is admitted at elapsed 1 (est = 2.997 before, 3.997 after)
    Decision decision = key.decide(1);

    // Then 7 more would pass: 3.997 + j < 10 for j = 0..6
    assertThat(decision.remaining()).isEqualTo(7);
    assertThat(key.admitted(1, 20)).isEqualTo(7);
  }

  @Test
  void resetAfterIsZeroWhenFreshAndCoversBothWindowsOtherwise() {
    SlidingWindowCounter f = new SlidingWindowCounter(Limit.of(10, Duration.ofNanos(W)));
    long[] state = new long[3];
    f.fresh(state, 0, 0);
    assertThat(f.resetAfter(state, 0, 0)).isZero();

    // When one permit is charged at elapsed 200
    f.admit(state, 0, 200, 1);

    // Then it weighs until the end of the next window; in the next window until its end; then fresh
    assertThat(f.resetAfter(state, 0, 200)).isEqualTo(800 + W);
    assertThat(f.resetAfter(state, 0, W + 100)).isEqualTo(900);
    assertThat(f.resetAfter(state, 0, 2 * W)).isZero();
  }
}
