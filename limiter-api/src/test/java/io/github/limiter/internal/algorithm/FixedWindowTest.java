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

/** Fixed window: at most N per aligned window [kW, (k+1)W), admitting while count + k &le; N. */
class FixedWindowTest {

  static final long W = Duration.ofSeconds(1).toNanos();
  static final Policy FIVE_PER_SECOND =
      Policy.fixedWindow("fw", Limit.of(5, Duration.ofSeconds(1)));

  static List<Long> origins() {
    return ManualClock.hostileOrigins(7);
  }

  /** The start of the aligned window that contains {@code t}. */
  static long windowStart(long t) {
    return t - Math.floorMod(t, W);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void admitsWhileCountIsBelowNAndRejectsTheRestUntilTheNextWindow(long origin) {
    // Given a key first seen a quarter into a window
    long start = windowStart(origin);
    long now = start + W / 4;
    PureDriver key = new PureDriver(FIVE_PER_SECOND, now);

    // When six requests arrive at once
    List<Decision> decisions =
        List.of(
            key.decide(now),
            key.decide(now),
            key.decide(now),
            key.decide(now),
            key.decide(now),
            key.decide(now));

    // Then the first five pass with remaining 4..0, and the sixth waits for the next window
    assertThat(decisions)
        .extracting(Decision::isAllowed)
        .containsExactly(true, true, true, true, true, false);
    assertThat(decisions.subList(0, 5))
        .extracting(Decision::remaining)
        .containsExactly(4L, 3L, 2L, 1L, 0L);
    assertThat(decisions.get(0).resetAfterNanos()).isEqualTo(W - W / 4);
    Decision rejected = decisions.get(5);
    assertThat(rejected.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(rejected.retryAfterNanos()).isEqualTo(W - W / 4);
    assertThat(rejected.remaining()).isZero();
  }

  @ParameterizedTest
  @MethodSource("origins")
  void theLastTickOfAWindowStillCountsAndTheFirstTickOfTheNextIsFresh(long origin) {
    // Given a full window
    long start = windowStart(origin);
    PureDriver key = new PureDriver(FIVE_PER_SECOND, start);
    assertThat(key.admitted(start, 5)).isEqualTo(5);

    // When asking on the window's last tick and on the next window's first tick
    Decision lastTick = key.decide(start + W - 1);
    int nextWindow = key.admitted(start + W, 6);

    // Then the last tick is rejected with one tick to wait, and the next window admits N again
    assertThat(lastTick.isAllowed()).isFalse();
    assertThat(lastTick.retryAfterNanos()).isEqualTo(1);
    assertThat(nextWindow).isEqualTo(5);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void rejectedRequestsNeverCount(long origin) {
    // Given a full window that then sees a thousand rejected requests
    long start = windowStart(origin);
    PureDriver key = new PureDriver(FIVE_PER_SECOND, start);
    key.admitted(start, 5);
    assertThat(key.admitted(start + 10, 1000)).isZero();

    // When the next window opens
    int admitted = key.admitted(start + W, 10);

    // Then it admits exactly N: the rejections were not carried over
    assertThat(admitted).isEqualTo(5);
  }

  @Test
  void aMultiPermitRequestIsAdmittedWhileCountPlusPermitsIsAtMostN() {
    // Given 3 of 5 permits used
    PureDriver key = new PureDriver(FIVE_PER_SECOND, 0);
    assertThat(key.decide(0, 3).remaining()).isEqualTo(2);

    // When asking for 3, then 2, then 1
    Decision three = key.decide(0, 3);
    Decision two = key.decide(0, 2);
    Decision one = key.decide(0, 1);

    // Then 3 does not fit, 2 fits exactly, and nothing is left
    assertThat(three.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(three.retryAfterNanos()).isEqualTo(W);
    assertThat(two.isAllowed()).isTrue();
    assertThat(two.remaining()).isZero();
    assertThat(one.isAllowed()).isFalse();
  }

  @Test
  void aRequestCostingMoreThanNCanNeverPass() {
    // Given a fresh key
    PureDriver key = new PureDriver(FIVE_PER_SECOND, 0);

    // When asking for N + 1 permits
    Decision decision = key.decide(0, 6);

    // Then it exceeds the capacity: no retry time at all, and nothing is charged
    assertThat(decision.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
    assertThat(decision.retryAfter()).isEmpty();
    assertThat(decision.retryAfterNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(decision.remaining()).isEqualTo(5);
    assertThat(decision.resetAfterNanos()).isZero();
    assertThat(key.admitted(0, 5)).isEqualTo(5);
  }

  @Test
  void aFreshKeyReportsNoResetAndAnEmptyWindowIsFresh() {
    // Given a key used in one window
    FixedWindow f = new FixedWindow(Limit.of(5, Duration.ofSeconds(1)));
    long state = f.fresh(0);
    assertThat(f.resetAfter(state, 0)).isZero();
    assertThat(f.remaining(state, 0)).isEqualTo(5);
    state = f.admit(state, 0, 2);

    // When the window has passed
    long later = f.resetAfter(state, W);

    // Then it is fresh again, with all permits
    assertThat(f.resetAfter(state, 10)).isEqualTo(W - 10);
    assertThat(later).isZero();
    assertThat(f.remaining(state, W)).isEqualTo(5);
  }

  @Test
  void refundGivesBackPermitsOfTheCurrentWindowOnly() {
    // Given 4 of 5 used
    FixedWindow f = new FixedWindow(Limit.of(5, Duration.ofSeconds(1)));
    long state = f.admit(f.fresh(0), 0, 4);

    // When 2 are refunded, and then 10 more
    long two = f.refund(state, 1, 2);
    long all = f.refund(two, 2, 10);

    // Then 3, then all 5, are available; never more than N
    assertThat(f.remaining(two, 1)).isEqualTo(3);
    assertThat(f.remaining(all, 2)).isEqualTo(5);
  }

  // Regression: with a raw clock reading near Long.MAX_VALUE, the window index jumps at the wrap,
  // and a key charged just before it looked as if it held billions of permits: locked out for
  // centuries and never reclaimable. The wrap now ends a window like any boundary.
  @Test
  void aClockWrapEndsTheWindowInsteadOfLockingTheKeyOut() {
    // Given a full window just before the clock wraps
    long beforeWrap = Long.MAX_VALUE - 100;
    PureDriver key = new PureDriver(FIVE_PER_SECOND, beforeWrap);
    assertThat(key.admitted(beforeWrap, 5)).isEqualTo(5);

    // When the sixth request asks, and the clock then passes the wrap
    Decision rejected = key.decide(beforeWrap);
    Decision lastTickBeforeWrap = key.decide(Long.MAX_VALUE);
    int afterWrap = key.admitted(Long.MIN_VALUE, 6);

    // Then it is told to wait until the wrap, exactly, and after it N are admitted again
    assertThat(rejected.retryAfterNanos()).isEqualTo(101);
    assertThat(lastTickBeforeWrap.isAllowed()).isFalse();
    assertThat(lastTickBeforeWrap.retryAfterNanos()).isEqualTo(1);
    assertThat(afterWrap).isEqualTo(5);
  }
}
