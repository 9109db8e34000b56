package io.github.limiter.tck;

import static io.github.limiter.tck.Views.peek;
import static io.github.limiter.tck.Views.versions;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of {@link io.github.limiter.Peek}: a key's state read for an operator, without
 * charging or writing anything. It reads what a decision at the same instant reports, a key never
 * seen reads as fresh, and a state stored under other limits of the policy reads as carried over to
 * the current ones.
 *
 * <p>Extend it as {@link RateLimitStoreContract}: {@link #createStore(NanoClock, Clock)} returns a
 * store that reads the given clock, placed at the wall clock's instant for calendar quotas, as in
 * {@link CalendarQuotaContract}. Every test drives time through a {@link ManualClock}.
 */
public abstract class KeyStateContract {

  private final List<RateLimitStore> created = new ArrayList<>();

  private static final long MS = 1_000_000L;

  /**
   * A new, empty store that reads {@code clock}, at {@code wallClock}'s instant when created: the
   * store must take {@code now} from {@code clock} as its reading minus its reading at creation,
   * and place that instant at {@code wallClock}'s reading at creation. Closed by the contract after
   * each test.
   */
  protected abstract RateLimitStore createStore(NanoClock clock, Clock wallClock);

  @AfterEach
  void closeStores() {
    created.forEach(RateLimitStore::close);
    created.clear();
  }

  private RateLimitStore store(ManualClock clock) {
    return store(clock, Clock.systemUTC());
  }

  private RateLimitStore store(ManualClock clock, String at) {
    return store(clock, Clock.fixed(Instant.parse(at), ZoneOffset.UTC));
  }

  private RateLimitStore store(ManualClock clock, Clock wallClock) {
    RateLimitStore store = createStore(clock, wallClock);
    created.add(store);
    return store;
  }

  private static Policy policy(Algorithm algorithm, Limit... limits) {
    return new Policy("peek", algorithm, List.of(limits), FailureMode.FAIL_CLOSED);
  }

  /** 10 a minute: a bucket of 10, or a window of 10 per minute, or 10 in flight. */
  private static Limit tenAMinute(Algorithm algorithm) {
    return algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.LEAKY_BUCKET
        ? Limit.bucket(10, Duration.ofMinutes(1), 10)
        : Limit.of(10, Duration.ofMinutes(1));
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void aKeyNeverSeenReadsFresh(Algorithm algorithm) {
    RateLimitStore store = store(ManualClock.random(11));
    Policy policy = policy(algorithm, tenAMinute(algorithm));

    Decision state = peek(store).peek(policy, "unseen");

    assertThat(state.isAllowed()).isTrue();
    assertThat(state.policy()).isEqualTo("peek");
    assertThat(state.limit()).isEqualTo(tenAMinute(algorithm));
    assertThat(state.remaining()).isEqualTo(10);
    assertThat(state.resetAfterNanos()).isZero();
    assertThat(peek(store).peek(store.bind(policy), "unseen").remaining()).isEqualTo(10);
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void aKeyReadsWhatItsLastDecisionReported(Algorithm algorithm) {
    // Given a key that spent 3 permits, at one instant
    RateLimitStore store = store(ManualClock.random(12));
    PolicyStore bound = store.bind(policy(algorithm, tenAMinute(algorithm)));
    Decision last = null;
    for (int i = 0; i < 3; i++) {
      last = bound.decide("k", 1);
      assertThat(last.isAllowed()).isTrue();
    }

    // When it is read, then it reads what the decision said: 7 left, and the same reset
    Decision state = peek(store).peek(bound, "k");
    assertThat(state.remaining()).isEqualTo(7).isEqualTo(last.remaining());
    assertThat(state.limit()).isEqualTo(last.limit());
    assertThat(state.resetAfterNanos()).isEqualTo(last.resetAfterNanos()).isPositive();
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void aReadChargesNothing(Algorithm algorithm) {
    RateLimitStore store = store(ManualClock.random(13));
    PolicyStore bound = store.bind(policy(algorithm, tenAMinute(algorithm)));
    bound.decide("k", 1);

    for (int i = 0; i < 25; i++) {
      assertThat(peek(store).peek(bound, "k").remaining()).isEqualTo(9);
      assertThat(peek(store).peek(bound, "other").remaining()).isEqualTo(10);
    }

    int admitted = 0;
    while (bound.decide("k", 1).isAllowed() && admitted < 20) {
      admitted++;
    }
    assertThat(admitted).as("the 9 left after 25 reads").isEqualTo(9);
    assertThat(bound.decide("other", 1).remaining())
        .as("read 25 times, never charged")
        .isEqualTo(9);
  }

  @Test
  void aTokenBucketReadsItsRefillAsTimePasses() {
    // Given a bucket of 10 at 1/s, emptied
    ManualClock clock = ManualClock.nearMaxValue();
    RateLimitStore store = store(clock);
    PolicyStore bound =
        store.bind(policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, Duration.ofSeconds(1), 10)));
    for (int i = 0; i < 10; i++) {
      bound.decide("k", 1);
    }
    assertThat(peek(store).peek(bound, "k").remaining()).isZero();

    // When 3 s pass, then it reads 3 tokens, full again in 7 s
    clock.advance(Duration.ofSeconds(3).toNanos());
    Decision state = peek(store).peek(bound, "k");
    assertThat(state.remaining()).isEqualTo(3);
    assertThat(state.resetAfter()).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void aPolicyOfSeveralLimitsReadsTheOneWithTheFewestLeft() {
    // Given 5 a second and 8 a minute, of which 6 were spent over two seconds
    ManualClock clock = ManualClock.at(0);
    RateLimitStore store = store(clock);
    Limit perSecond = Limit.of(5, Duration.ofSeconds(1));
    Limit perMinute = Limit.of(8, Duration.ofMinutes(1));
    PolicyStore bound = store.bind(policy(Algorithm.FIXED_WINDOW, perSecond, perMinute));
    for (int i = 0; i < 4; i++) {
      assertThat(bound.decide("k", 1).isAllowed()).isTrue();
    }
    assertThat(peek(store).peek(bound, "k").limit())
        .as("1 left a second, 4 a minute")
        .isEqualTo(perSecond);
    assertThat(peek(store).peek(bound, "k").remaining()).isEqualTo(1);

    // When the next second has begun and 2 more are spent, then the minute binds, with 2 left
    clock.advance(Duration.ofSeconds(1).toNanos());
    bound.decide("k", 1);
    bound.decide("k", 1);
    Decision state = peek(store).peek(bound, "k");
    assertThat(state.limit()).isEqualTo(perMinute);
    assertThat(state.remaining()).isEqualTo(2);
  }

  @Test
  void aStateOfOtherLimitsReadsAsCarriedOverBeforeAnyDecision() {
    // Given a bucket of 10 that spent 4
    RateLimitStore store = store(ManualClock.random(14));
    Policy v1 = policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, Duration.ofHours(1), 10));
    PolicyStore bound = store.bind(v1);
    for (int i = 0; i < 4; i++) {
      bound.decide("k", 1);
    }

    // When the capacity is lowered to 8, then 5, it reads 6, then 5: its tokens capped, never a
    // fresh bucket; a key never seen reads the new capacity
    PolicyStore v2 =
        versions(store)
            .rebind(bound, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, Duration.ofHours(1), 8)));
    assertThat(peek(store).peek(v2, "k").remaining()).isEqualTo(6);
    assertThat(peek(store).peek(v2, "new").remaining()).isEqualTo(8);
    PolicyStore v3 =
        versions(store)
            .rebind(v2, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, Duration.ofHours(1), 5)));
    assertThat(peek(store).peek(v3, "k").remaining()).isEqualTo(5);
    assertThat(peek(store).peek(v3, "k").limit())
        .isEqualTo(Limit.bucket(1, Duration.ofHours(1), 5));

    // And the read left the carry to the first decision, which finds the same
    assertThat(v3.decide("k", 1).remaining()).isEqualTo(4);
  }

  @Test
  void aWindowReadsItsCountAgainstTheNewLimit() {
    RateLimitStore store = store(ManualClock.at(0));
    PolicyStore v1 = store.bind(policy(Algorithm.FIXED_WINDOW, Limit.of(10, Duration.ofHours(1))));
    for (int i = 0; i < 6; i++) {
      v1.decide("k", 1);
    }

    PolicyStore v2 =
        versions(store)
            .rebind(v1, policy(Algorithm.FIXED_WINDOW, Limit.of(8, Duration.ofHours(1))));

    assertThat(peek(store).peek(v2, "k").remaining()).as("6 of 10 used, lowered to 8").isEqualTo(2);
  }

  @Test
  void aSpentDailyQuotaReadsNoneLeftUntilItsPeriodEnds() {
    // Given 3 a day in Tokyo, listed before 100 a second (burst 200), at 10:30 UTC: the day ends
    // at 15:00 UTC, midnight in Tokyo
    ManualClock clock = ManualClock.random(15);
    RateLimitStore store = store(clock, "2024-06-10T10:30:00Z");
    Limit quota = Limit.parse("3/day").inCalendar(ZoneId.of("Asia/Tokyo"), 1);
    PolicyStore bound =
        store.bind(
            policy(Algorithm.TOKEN_BUCKET, quota, Limit.bucket(100, Duration.ofSeconds(1), 200)));
    long toDayEnd =
        Duration.between(
                Instant.parse("2024-06-10T10:30:00Z"), Instant.parse("2024-06-10T15:00:00Z"))
            .toNanos();
    Decision unseen = peek(store).peek(bound, "k");
    assertThat(unseen.limit()).as("3 left of the quota, 200 of the rate").isEqualTo(quota);
    assertThat(unseen.remaining()).isEqualTo(3);
    assertThat(unseen.resetAfterNanos()).isZero();

    // When the key spends its quota
    for (int i = 0; i < 3; i++) {
      assertThat(bound.decide("k", 1).isAllowed()).isTrue();
    }

    // Then it reads none left of the quota, for as long as the decision it would get waits
    Decision spent = peek(store).peek(bound, "k");
    assertThat(spent.isAllowed()).as("a read admits nothing and refuses nothing").isTrue();
    assertThat(spent.limit()).isEqualTo(quota);
    assertThat(spent.remaining()).isZero();
    assertThat(spent.resetAfterNanos()).isEqualTo(toDayEnd);
    Decision refused = bound.decide("k", 1);
    assertThat(refused.limit()).isEqualTo(quota);
    assertThat(refused.retryAfterNanos()).isEqualTo(toDayEnd);
    clock.advance(toDayEnd - MS);
    assertThat(peek(store).peek(bound, "k").remaining()).isZero();
    assertThat(peek(store).peek(bound, "k").resetAfterNanos())
        .as("1 ms before the day ends")
        .isEqualTo(MS);

    // And at the day's end it reads the whole quota again, and nothing to reset
    clock.advance(MS);
    Decision next = peek(store).peek(bound, "k");
    assertThat(next.limit()).isEqualTo(quota);
    assertThat(next.remaining()).isEqualTo(3);
    assertThat(next.resetAfterNanos()).isZero();
    assertThat(bound.decide("k", 3).isAllowed()).isTrue();
  }

  @Test
  void aTieBindsTheLimitListedFirst() {
    // Given a bucket of 2 at 1 an hour and 2 a day, both spent by the same 2 permits, at 18:00 UTC
    ManualClock clock = ManualClock.negative();
    RateLimitStore store = store(clock, "2024-06-10T18:00:00Z");
    Limit rate = Limit.bucket(1, Duration.ofHours(1), 2);
    Limit quota = Limit.parse("2/day");
    PolicyStore quotaFirst = store.bind(policy(Algorithm.TOKEN_BUCKET, quota, rate));
    quotaFirst.decide("k", 2);
    Policy rateFirst =
        new Policy(
            "peek-rate-first",
            Algorithm.TOKEN_BUCKET,
            List.of(rate, quota),
            FailureMode.FAIL_CLOSED);
    store.decide(rateFirst, "k", 2);

    // When they are read, Then each reads 0 left under the limit it lists first, with its reset
    Decision byQuota = peek(store).peek(quotaFirst, "k");
    assertThat(byQuota.limit()).isEqualTo(quota);
    assertThat(byQuota.remaining()).isZero();
    assertThat(byQuota.resetAfter()).as("at midnight UTC").isEqualTo(Duration.ofHours(6));
    Decision byRate = peek(store).peek(rateFirst, "k");
    assertThat(byRate.limit()).isEqualTo(rate);
    assertThat(byRate.remaining()).isZero();
    assertThat(byRate.resetAfter()).as("refilled in 2 hours").isEqualTo(Duration.ofHours(2));
  }
}
