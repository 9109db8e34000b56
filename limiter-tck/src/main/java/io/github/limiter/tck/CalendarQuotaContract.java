package io.github.limiter.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of calendar quotas ({@code 10000/month} beside a rate, all-or-nothing) that every
 * {@link RateLimitStore} must pass: periods in a time zone from an anchor day, exact to the
 * millisecond, and debt that keeps a key out until its period ends and never crosses it.
 *
 * <p>Extend it and implement {@link #createStore(NanoClock, Clock)}: the store must take {@code
 * now} from {@code clock} as its reading minus its reading at creation, and place that instant at
 * {@code wallClock}'s reading at creation.
 */
public abstract class CalendarQuotaContract {

  private static final long MS = 1_000_000L;
  private static final AtomicInteger NAMES = new AtomicInteger();
  private final List<RateLimitStore> created = new ArrayList<>();

  /** A new, empty store reading {@code clock}, at {@code wallClock}'s instant when created. */
  protected abstract RateLimitStore createStore(NanoClock clock, Clock wallClock);

  @AfterEach
  void closeStores() {
    created.forEach(RateLimitStore::close);
    created.clear();
  }

  private RateLimitStore store(ManualClock clock, String at) {
    RateLimitStore store = createStore(clock, Clock.fixed(Instant.parse(at), ZoneOffset.UTC));
    created.add(store);
    return store;
  }

  private static long until(String from, String to) {
    return Duration.between(Instant.parse(from), Instant.parse(to)).toNanos();
  }

  private static String name(String base) {
    return base + "-" + NAMES.incrementAndGet();
  }

  private static Policy policy(String base, Limit... limits) {
    return new Policy(name(base), Algorithm.TOKEN_BUCKET, List.of(limits), FailureMode.FAIL_CLOSED);
  }

  /** Refused until 1 ms before the reset, with 1 ms to wait then; admitted at it, quota full. */
  private static void resetsExactlyAt(
      RateLimitStore store, ManualClock clock, Policy policy, Limit quota, long untilReset) {
    Decision refused = store.decide(policy, "k", 1);
    assertThat(refused.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(refused.limit()).isEqualTo(quota);
    assertThat(refused.retryAfterNanos()).isEqualTo(untilReset);
    assertThat(refused.resetAfterNanos()).isEqualTo(untilReset);
    clock.advance(untilReset - MS);
    Decision before = store.decide(policy, "k", 1);
    assertThat(before.isAllowed()).isFalse();
    assertThat(before.retryAfterNanos()).isEqualTo(MS);
    clock.advance(MS);
    Decision at = store.decide(policy, "k", 1);
    assertThat(at.isAllowed()).as("admitted at the reset").isTrue();
    assertThat(at.remaining()).isEqualTo(quota.permits() - 1);
  }

  @Test
  void anchorThirtyOneInALeapFebruaryResetsOnItsLastDay() {
    // Given a quota of 3 a month from the 31st, beside a rate, late on February 28th, 2024
    ManualClock clock = ManualClock.nearMaxValue();
    RateLimitStore store = store(clock, "2024-02-28T23:00:00Z");
    Limit quota = Limit.parse("3/month").inCalendar(ZoneOffset.UTC, 31);
    Policy policy = policy("month", Limit.bucket(100, Duration.ofSeconds(1), 200), quota);
    // When the key uses its quota
    for (int i = 0; i < 3; i++) {
      assertThat(store.decide(policy, "k", 1).isAllowed()).isTrue();
    }
    // Then its month ends at February 29th, 00:00
    resetsExactlyAt(
        store, clock, policy, quota, until("2024-02-28T23:00:00Z", "2024-02-29T00:00:00Z"));
  }

  @Test
  void aTwentyFiveHourDayInBerlinEndsAtLocalMidnight() {
    // Given a daily quota listed before the rate, at 02:00 CEST on the day clocks go back
    ManualClock clock = ManualClock.random(29);
    RateLimitStore store = store(clock, "2024-10-27T00:00:00Z");
    Limit quota = Limit.parse("2/day").inCalendar(ZoneId.of("Europe/Berlin"), 1);
    Policy policy = policy("dst", quota, Limit.bucket(100, Duration.ofSeconds(1), 200));
    store.decide(policy, "k", 1);
    store.decide(policy, "k", 1);
    // Then it ends 23 hours later, at 00:00 CET
    resetsExactlyAt(
        store, clock, policy, quota, until("2024-10-27T00:00:00Z", "2024-10-27T23:00:00Z"));
  }

  @Test
  void aQuotaRefusalChargesNoOtherLimitAndARateRefusalNoQuota() {
    // Given 2 a second and 3 a day, in New York on the day clocks go forward
    ManualClock clock = ManualClock.negative();
    RateLimitStore store = store(clock, "2024-03-10T12:00:00Z");
    Limit rate = Limit.bucket(2, Duration.ofSeconds(1), 2);
    Limit quota = Limit.parse("3/day").inCalendar(ZoneId.of("America/New_York"), 1);
    Policy policy = policy("both", rate, quota);
    store.decide(policy, "k", 2);
    // When the rate refuses, Then the quota was not charged for it
    Decision byRate = store.decide(policy, "k", 1);
    assertThat(byRate.limit()).isEqualTo(rate);
    clock.advance(Duration.ofSeconds(1));
    assertThat(store.decide(policy, "k", 1).isAllowed()).isTrue();
    // When the quota refuses, Then the wait is to local midnight, 04:00 UTC after a 23-hour day
    clock.advance(Duration.ofSeconds(1));
    Decision byQuota = store.decide(policy, "k", 1);
    assertThat(byQuota.limit()).isEqualTo(quota);
    assertThat(byQuota.retryAfterNanos())
        .isEqualTo(until("2024-03-10T12:00:02Z", "2024-03-11T04:00:00Z"));
    // and the rate was not charged for that refusal: two pass at once at the next period
    clock.advance(until("2024-03-10T12:00:02Z", "2024-03-11T04:00:00Z"));
    assertThat(store.decide(policy, "k", 2).isAllowed()).isTrue();
    // A request above the quota can never pass
    assertThat(store.decide(policy, "other", 4).outcome()).isNotEqualTo(Outcome.ALLOWED);
  }

  @Test
  void debtKeepsTheKeyOutUntilThePeriodEndsAndNeverCrossesIt() {
    // Given 10 a month, 8 used, and an actual cost that settles 7 more at 20:00 on January 31st
    ManualClock clock = ManualClock.random(31);
    RateLimitStore store = store(clock, "2024-01-31T20:00:00Z");
    Limit quota = Limit.parse("10/month");
    Policy policy = policy("debt", Limit.bucket(100, Duration.ofSeconds(1), 200), quota);
    assertThat(store.decide(policy, "k", 8).isAllowed()).isTrue();
    store.adjust(policy, "k", 7);
    long toMonthEnd = until("2024-01-31T20:00:00Z", "2024-02-01T00:00:00Z");

    // When requests come before the month ends, Then they wait for the month's end
    Decision refused = store.decide(policy, "k", 1);
    assertThat(refused.isAllowed()).isFalse();
    assertThat(refused.retryAfterNanos()).isEqualTo(toMonthEnd);
    store.adjust(policy, "k", -3); // a refund of part of it leaves 12 of 10: still over
    assertThat(store.decide(policy, "k", 1).isAllowed()).isFalse();
    clock.advance(toMonthEnd - MS);
    assertThat(store.decide(policy, "k", 1).isAllowed()).isFalse();

    // When the month turns, Then the whole quota is there: the debt stayed in January
    clock.advance(MS);
    Decision next = store.decide(policy, "k", 10);
    assertThat(next.isAllowed()).isTrue();
    assertThat(next.remaining()).isZero();
  }

  @Test
  void aRefundGivesBackWithinThePeriod() {
    ManualClock clock = ManualClock.nearMaxValue();
    RateLimitStore store = store(clock, "2024-12-31T23:59:00Z");
    Policy policy = policy("refund", Limit.parse("2/year"));
    store.decide(policy, "k", 2);
    store.adjust(policy, "k", -1);
    Decision again = store.decide(policy, "k", 1);
    assertThat(again.isAllowed()).isTrue();
    assertThat(again.resetAfterNanos()).isEqualTo(Duration.ofMinutes(1).toNanos());
  }
}
