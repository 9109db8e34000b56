package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.memory.InMemoryStore.Overflow;
import io.github.limiter.tck.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Calendar quotas in the in-memory store on a manual clock at a hostile origin: each boundary is
 * exact to the millisecond, refused 1 ms before the reset and admitted at it.
 */
class CalendarQuotaTest {

  static final long MS = 1_000_000L;

  /** A store whose wall clock reads {@code at} when its manual clock reads a hostile origin. */
  static InMemoryStore store(ManualClock clock, String at) {
    return InMemoryStore.builder()
        .clock(clock)
        .wallClock(Clock.fixed(Instant.parse(at), ZoneOffset.UTC))
        .build();
  }

  static long nanosBetween(String from, String to) {
    return Duration.between(Instant.parse(from), Instant.parse(to)).toNanos();
  }

  @ParameterizedTest(name = "{0} in {1} anchor {2}, from {3}: reset at {4}")
  @CsvSource({
    // anchor 31 in February: 28 and 29 days
    "3/month, UTC, 31, 2023-02-27T10:00:00Z, 2023-02-28T00:00:00Z",
    "3/month, UTC, 31, 2024-02-28T10:00:00Z, 2024-02-29T00:00:00Z",
    "3/month, UTC, 31, 2024-02-29T00:00:00Z, 2024-03-31T00:00:00Z",
    // anchor 30 in April
    "3/month, UTC, 30, 2024-04-29T23:00:00Z, 2024-04-30T00:00:00Z",
    "3/month, Europe/Berlin, 30, 2024-04-10T08:00:00Z, 2024-04-29T22:00:00Z",
    // daylight saving: the 23-hour and the 25-hour day
    "3/day, Europe/Berlin, 1, 2024-03-31T00:30:00Z, 2024-03-31T22:00:00Z",
    "3/day, Europe/Berlin, 1, 2024-10-26T22:30:00Z, 2024-10-27T23:00:00Z",
    "3/day, America/New_York, 1, 2024-03-10T06:00:00Z, 2024-03-11T04:00:00Z",
    "3/day, America/New_York, 1, 2024-11-03T05:00:00Z, 2024-11-04T05:00:00Z",
    // a leap year's February 29th, and the year's end
    "3/day, UTC, 1, 2024-02-29T12:00:00Z, 2024-03-01T00:00:00Z",
    "3/year, UTC, 1, 2024-12-31T23:00:00Z, 2025-01-01T00:00:00Z",
    "3/week, Asia/Tokyo, 1, 2024-12-31T10:00:00Z, 2025-01-05T15:00:00Z",
  })
  void refusedOneMillisecondBeforeTheResetAndAdmittedAtIt(
      String quota, String zone, int anchor, String start, String reset) {
    // Given a rate limit and a quota of 3, all-or-nothing, and a key that used the quota
    Limit limit = Limit.parse(quota).inCalendar(ZoneId.of(zone), anchor);
    Policy policy = Policy.tokenBucket("api", Limit.bucket(100, Duration.ofSeconds(1), 200), limit);
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = store(clock, start);
    for (int i = 0; i < 3; i++) {
      assertThat(store.decide(policy, "k", 1).isAllowed()).isTrue();
    }
    long untilReset = nanosBetween(start, reset);

    // When the fourth comes, Then it is refused with the exact wait and reset
    Decision refused = store.decide(policy, "k", 1);
    assertThat(refused.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(refused.limit()).isEqualTo(limit);
    assertThat(refused.retryAfterNanos()).isEqualTo(untilReset);
    assertThat(refused.resetAfterNanos()).isEqualTo(untilReset);

    // 1 ms before the reset still refused, with 1 ms to wait
    clock.advance(untilReset - MS);
    Decision last = store.decide(policy, "k", 1);
    assertThat(last.isAllowed()).isFalse();
    assertThat(last.retryAfterNanos()).isEqualTo(MS);

    // at the reset admitted, with the next period's quota
    clock.advance(MS);
    Decision next = store.decide(policy, "k", 1);
    assertThat(next.isAllowed()).isTrue();
    assertThat(next.remaining()).isEqualTo(2);
  }

  @Test
  void aRefusedQuotaChargesNoOtherLimitOfThePolicy() {
    // Given a window of 5 a minute and a quota of 2 a day
    Policy policy =
        Policy.fixedWindow("api", Limit.of(5, Duration.ofMinutes(1)), Limit.parse("2/day"));
    ManualClock clock = ManualClock.at(ManualClock.JUST_BELOW_ZERO);
    InMemoryStore store = store(clock, "2024-06-01T12:00:00Z");
    store.decide(policy, "k", 1);
    store.decide(policy, "k", 1);

    // When the quota refuses three more
    for (int i = 0; i < 3; i++) {
      assertThat(store.decide(policy, "k", 1).isAllowed()).isFalse();
    }

    // Then the window was charged for the two admitted only: 3 of 5 left once the day turns over
    clock.advance(nanosBetween("2024-06-01T12:00:00Z", "2024-06-02T00:00:00Z"));
    Decision next = store.decide(policy, "k", 1);
    assertThat(next.isAllowed()).isTrue();
    assertThat(next.remaining()).isEqualTo(1); // the quota's 1 left is the tightest
    assertThat(store.decide(policy, "k", 1).remaining()).isZero();
  }

  @Test
  void debtKeepsTheKeyOutUntilThePeriodEndsAndNeverCrossesIt() {
    // Given a quota of 10 a month, 8 used, and an actual cost that settles 7 more: 5 over
    Policy policy = Policy.fixedWindow("api", Limit.parse("10/month"));
    ManualClock clock = ManualClock.at(ManualClock.NEGATIVE);
    InMemoryStore store = store(clock, "2024-01-31T20:00:00Z");
    store.decide(policy, "k", 8);
    store.adjust(policy, "k", 7);

    // When a request comes before the month ends, Then it waits out the month, not the debt
    Decision refused = store.decide(policy, "k", 1);
    assertThat(refused.isAllowed()).isFalse();
    assertThat(refused.retryAfterNanos())
        .isEqualTo(nanosBetween("2024-01-31T20:00:00Z", "2024-02-01T00:00:00Z"));
    // and a refund of part of the debt still leaves it over
    store.adjust(policy, "k", -3);
    assertThat(store.decide(policy, "k", 1).isAllowed()).isFalse();

    // When the month turns, Then the whole quota is there: the debt did not carry
    clock.advance(nanosBetween("2024-01-31T20:00:00Z", "2024-02-01T00:00:00Z"));
    Decision next = store.decide(policy, "k", 10);
    assertThat(next.isAllowed()).isTrue();
    assertThat(next.remaining()).isZero();
  }

  @Test
  void theStoreForgetsAKeyWhenItsPeriodEnds() {
    // Given a store of one key that refuses new keys when full, and a key that used its day
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store =
        InMemoryStore.builder()
            .clock(clock)
            .wallClock(Clock.fixed(Instant.parse("2024-06-01T23:00:00Z"), ZoneOffset.UTC))
            .maxKeys(1)
            .overflow(Overflow.REJECT_NEW_KEYS)
            .build();
    Policy policy = Policy.tokenBucket("api", Limit.parse("5/day"));
    store.decide(policy, "a", 1);

    // When another key comes within the day, Then there is no room: the first is not fresh
    assertThat(store.decide(policy, "b", 1).outcome()).isEqualTo(Outcome.UNAVAILABLE);

    // When the day ends, Then the first key is forgotten and the other finds room
    clock.advance(Duration.ofHours(1));
    assertThat(store.decide(policy, "b", 1).isAllowed()).isTrue();
    assertThat(store.size()).isEqualTo(1);
  }

  @Test
  void aStepOfTheWallClockAfterCreationDoesNotMoveThePeriods() {
    // Given a store created at 23:00Z, whose wall clock then steps an hour ahead (an NTP step)
    Instant[] wall = {Instant.parse("2024-06-01T23:00:00Z")};
    Clock stepping =
        new Clock() {
          @Override
          public Instant instant() {
            return wall[0];
          }

          @Override
          public ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
          }
        };
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = InMemoryStore.builder().clock(clock).wallClock(stepping).build();
    wall[0] = wall[0].plus(Duration.ofHours(1));
    Policy policy = Policy.tokenBucket("api", Limit.parse("1/day"));

    // When a key uses its day, Then it waits until midnight as the clock read at creation, an hour
    store.decide(policy, "k", 1);
    assertThat(store.decide(policy, "k", 1).retryAfter()).contains(Duration.ofHours(1));
  }

  @Test
  void eachPlanCarriesItsOwnQuota() {
    // Given a free plan of 2 a month and a pro plan of 5, under the same rate
    Limit rate = Limit.bucket(100, Duration.ofSeconds(1), 200);
    Policy free = Policy.tokenBucket("api.plan.free", rate, Limit.parse("2/month"));
    Policy pro = Policy.tokenBucket("api.plan.pro", rate, Limit.parse("5/month"));
    ManualClock clock = ManualClock.at(0);
    InMemoryStore store = store(clock, "2024-06-10T00:00:00Z");

    // Then each admits its own quota in the month
    assertThat(admitted(store, free, 10)).isEqualTo(2);
    assertThat(admitted(store, pro, 10)).isEqualTo(5);
  }

  private static int admitted(InMemoryStore store, Policy policy, int tries) {
    int admitted = 0;
    for (int i = 0; i < tries; i++) {
      admitted += store.decide(policy, "k", 1).isAllowed() ? 1 : 0;
    }
    return admitted;
  }

  @Test
  void aNewVersionOfThePolicyKeepsTheQuotasCountAndARateNeverTakesAQuotasState() {
    // Given a window of 100 a day beside a quota of 2 a day, used up
    ManualClock clock = ManualClock.at(ManualClock.NEGATIVE);
    InMemoryStore store = store(clock, "2024-06-01T12:00:00Z");
    Policy v1 = Policy.fixedWindow("live", Limit.of(100, Duration.ofDays(1)), Limit.parse("2/day"));
    var bound = store.bind(v1);
    bound.decide("k", 2);

    // When the quota grows to 3, listed first now, beside the same window
    Policy v2 = Policy.fixedWindow("live", Limit.parse("3/day"), Limit.of(100, Duration.ofDays(1)));
    var next = store.rebind(bound, v2);

    // Then the key keeps its 2 used of the day: one more passes, and the window kept its count
    Decision one = next.decide("k", 1);
    assertThat(one.isAllowed()).isTrue();
    assertThat(one.remaining()).isZero();
    assertThat(next.decide("k", 1).isAllowed()).isFalse();
  }

  @Test
  void quotasParseBesideRates() {
    List<Limit> limits = Limit.parseAll("100/s burst=200, 10000/month");
    assertThat(limits.get(1).isQuota()).isTrue();
    assertThat(limits.get(1)).hasToString("10000/month");
    assertThat(limits.get(0).isQuota()).isFalse();
  }
}
