package io.github.limiter.internal.algorithm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

/** Sliding window log: entries with t &le; now − W drop out; admits while size + k &le; N. */
class SlidingWindowLogTest {

  static final long W = Duration.ofSeconds(10).toNanos();
  static final Policy THREE_PER_10S =
      Policy.slidingWindowLog("log", Limit.of(3, Duration.ofSeconds(10)));

  static List<Long> origins() {
    // The log compares differences only, so it must not care where, or across what, time runs.
    return List.of(
        ManualClock.NEAR_MAX,
        Long.MAX_VALUE - W / 2,
        ManualClock.JUST_BELOW_ZERO,
        ManualClock.NEGATIVE,
        -W / 2,
        987_654_321_987L);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void anEntryDropsOutExactlyWhenItIsWOld(long t0) {
    // Given N admissions at t0
    PureDriver key = new PureDriver(THREE_PER_10S, t0);
    assertThat(key.admitted(t0, 3)).isEqualTo(3);

    // When asking at t0 + W - 1 (entries at t0 > now - W) and at t0 + W (t0 <= now - W)
    Decision justBefore = key.decide(t0 + W - 1);
    int atW = key.admitted(t0 + W, 5);

    // Then the first waits one tick, and at t0 + W all three entries are gone
    assertThat(justBefore.isAllowed()).isFalse();
    assertThat(justBefore.retryAfterNanos()).isEqualTo(1);
    assertThat(atW).isEqualTo(3);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void theWindowSlidesEntryByEntry(long t0) {
    // Given admissions at t0, t0 + 1s and t0 + 2s
    long s = Duration.ofSeconds(1).toNanos();
    PureDriver key = new PureDriver(THREE_PER_10S, t0);
    key.decide(t0);
    key.decide(t0 + s);
    Decision third = key.decide(t0 + 2 * s);
    assertThat(third.remaining()).isZero();
    assertThat(third.resetAfterNanos()).isEqualTo(W);

    // When asking at t0 + 5s
    Decision rejected = key.decide(t0 + 5 * s);

    // Then the wait is until the oldest entry drops out; after it exactly one more fits
    assertThat(rejected.retryAfterNanos()).isEqualTo(W - 5 * s);
    assertThat(key.admitted(t0 + W, 2)).isEqualTo(1);
    assertThat(key.admitted(t0 + W + s, 2)).isEqualTo(1);
  }

  @Test
  void aMultiPermitRequestWaitsForAsManyEntriesAsItNeeds() {
    // Given entries at 0, 1 and 2 (ns)
    PureDriver key = new PureDriver(THREE_PER_10S, 0);
    key.decide(0);
    key.decide(1);
    key.decide(2);

    // When 2 permits are asked for at 5
    Decision two = key.decide(5, 2);

    // Then the two oldest must drop out: the one at 1 decides, at 1 + W
    assertThat(two.retryAfterNanos()).isEqualTo(1 + W - 5);
    assertThat(key.decide(W, 2).isAllowed()).isFalse();
    assertThat(key.decide(W + 1, 2).isAllowed()).isTrue();
    assertThat(key.decide(W + 1, 1).isAllowed()).isFalse();
  }

  @Test
  void rejectedRequestsNeverCount() {
    PureDriver key = new PureDriver(THREE_PER_10S, 0);
    key.admitted(0, 3);
    assertThat(key.admitted(W - 1, 1000)).isZero();

    int admitted = key.admitted(W, 10);

    assertThat(admitted).isEqualTo(3);
  }

  @Test
  void aRequestCostingMoreThanNCanNeverPass() {
    PureDriver key = new PureDriver(THREE_PER_10S, 0);

    Decision decision = key.decide(0, 4);

    assertThat(decision.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
    assertThat(decision.retryAfter()).isEmpty();
    assertThat(decision.remaining()).isEqualTo(3);
  }

  @Test
  void refundDropsTheNewestEntries() {
    // Given entries at 0 and at 5s
    SlidingWindowLog f = new SlidingWindowLog(Limit.of(3, Duration.ofSeconds(10)));
    long[] state = new long[f.stateSize()];
    f.fresh(state, 0, 0);
    f.admit(state, 0, 0, 1);
    f.admit(state, 0, W / 2, 2);
    assertThat(f.remaining(state, 0, W / 2)).isZero();

    // When 2 permits are refunded
    f.refund(state, 0, W / 2, 2);

    // Then 2 are free, and the key is fresh once the entry at 0 is W old
    assertThat(f.remaining(state, 0, W / 2)).isEqualTo(2);
    assertThat(f.resetAfter(state, 0, W / 2)).isEqualTo(W / 2);
    assertThat(f.resetAfter(state, 0, W)).isZero();
  }

  @Test
  void aLogOfMoreThanAMillionEntriesIsRefusedWithAHint() {
    assertThatThrownBy(() -> new SlidingWindowLog(Limit.of(2_000_000, Duration.ofSeconds(1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2000000")
        .hasMessageContaining("sliding-window-counter");
  }
}
