package io.github.limiter.tck;

import static io.github.limiter.tck.Views.versions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Algorithm;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of {@link io.github.limiter.LiveVersions#rebind} for a store that changes limits
 * while it runs: each key keeps its state under the new limits, by its algorithm's rule. Nothing
 * resets and no key gets a fresh burst; a lower limit applies at once, a higher one gives only what
 * it adds.
 *
 * <p>Extend it as {@link RateLimitStoreContract}: {@link #createStore(NanoClock)} returns a store
 * that reads the given clock. Every test drives time through a {@link ManualClock} and never
 * sleeps.
 */
public abstract class LiveLimitsContract {

  private final List<RateLimitStore> created = new ArrayList<>();

  /** A new, empty store that reads {@code clock}. Closed by the contract after each test. */
  protected abstract RateLimitStore createStore(NanoClock clock);

  @AfterEach
  void closeStores() {
    created.forEach(RateLimitStore::close);
    created.clear();
  }

  private RateLimitStore store(ManualClock clock) {
    RateLimitStore store = createStore(clock);
    created.add(store);
    return store;
  }

  static List<Supplier<ManualClock>> origins() {
    return List.of(() -> ManualClock.random(7), ManualClock::nearMaxValue, ManualClock::negative);
  }

  private static Policy policy(Algorithm algorithm, Limit... limits) {
    return new Policy("live", algorithm, List.of(limits), FailureMode.FAIL_OPEN);
  }

  /** How many of {@code tries} one-permit requests for {@code key} are admitted, at one instant. */
  private static int admitted(PolicyStore store, String key, int tries) {
    int admitted = 0;
    for (int i = 0; i < tries; i++) {
      if (store.decide(key, 1).isAllowed()) {
        admitted++;
      }
    }
    return admitted;
  }

  // ------------------------------------------------------------------------------------- tests

  @ParameterizedTest
  @MethodSource("origins")
  void aTokenBucketKeepsItsTokensCappedAtTheNewCapacity(Supplier<ManualClock> origin) {
    // Given a bucket of 10 at 1/s that used 4 of its burst
    ManualClock clock = origin.get();
    RateLimitStore store = store(clock);
    PolicyStore v1 = store.bind(policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(1), 10)));
    assertThat(admitted(v1, "k", 4)).isEqualTo(4);

    // When the capacity rises to 20, then Then the 6 tokens left stay 6: no fresh burst
    PolicyStore v2 =
        versions(store).rebind(v1, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(1), 20)));
    assertThat(v2.decide("k", 1).remaining()).isEqualTo(5);
    assertThat(admitted(v2, "k", 10)).isEqualTo(5);

    // And the tokens refill at the new rate, up to the new capacity: 2/s now
    PolicyStore v3 =
        versions(store).rebind(v2, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(2, sec(1), 3)));
    clock.advance(sec(1));
    assertThat(admitted(v3, "k", 10)).isEqualTo(2);
    clock.advance(sec(60));
    assertThat(admitted(v3, "k", 10)).as("capped at the new capacity 3").isEqualTo(3);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void aTokenBucketKeepsItsTokensNotItsTimeWhenTheRateChanges(Supplier<ManualClock> origin) {
    // Given a bucket of 10 at 1/s with 6 tokens left
    ManualClock clock = origin.get();
    RateLimitStore store = store(clock);
    PolicyStore v1 = store.bind(policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(1), 10)));
    assertThat(admitted(v1, "fast", 4)).isEqualTo(4);
    assertThat(admitted(v1, "slow", 4)).isEqualTo(4);

    // When the rate doubles, then the 6 tokens are still 6, not the 12 that 6 s would refill now
    PolicyStore v2 =
        versions(store).rebind(v1, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(2, sec(1), 10)));
    assertThat(admitted(v2, "fast", 10)).isEqualTo(6);

    // When it halves instead, then they are still 6, not 3
    PolicyStore v3 =
        versions(store).rebind(v2, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(2), 10)));
    assertThat(admitted(v3, "slow", 10)).isEqualTo(6);
  }

  @Test
  void aLowerCapacityAppliesAtOnceToAFullBucket() {
    ManualClock clock = ManualClock.random(3);
    RateLimitStore store = store(clock);
    PolicyStore v1 = store.bind(policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(1), 10)));
    assertThat(admitted(v1, "k", 1)).isEqualTo(1);

    PolicyStore v2 =
        versions(store).rebind(v1, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(1), 3)));

    assertThat(admitted(v2, "k", 10)).isEqualTo(3);
  }

  @ParameterizedTest
  @MethodSource("origins")
  void aLeakyBucketKeepsItsLevelWhichLeaksAtTheNewRate(Supplier<ManualClock> origin) {
    // Given a queue of 6 at 1/s that holds 4
    ManualClock clock = origin.get();
    RateLimitStore store = store(clock);
    PolicyStore v1 = store.bind(policy(Algorithm.LEAKY_BUCKET, Limit.bucket(1, sec(1), 6)));
    assertThat(admitted(v1, "k", 4)).isEqualTo(4);

    // When the capacity drops to 5 and the rate rises to 2/s
    PolicyStore v2 =
        versions(store).rebind(v1, policy(Algorithm.LEAKY_BUCKET, Limit.bucket(2, sec(1), 5)));

    // Then one more fits now, and the level of 5 leaks at 2/s
    assertThat(admitted(v2, "k", 10)).isEqualTo(1);
    clock.advance(sec(1));
    assertThat(admitted(v2, "k", 10)).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "SLIDING_WINDOW_LOG"})
  void aWindowKeepsItsCountAgainstTheNewLimit(Algorithm algorithm) {
    for (Supplier<ManualClock> origin : origins()) {
      // Given a window of 10/min that counted 6
      ManualClock clock = origin.get();
      RateLimitStore store = store(clock);
      PolicyStore v1 = store.bind(policy(algorithm, Limit.of(10, Duration.ofMinutes(1))));
      assertThat(admitted(v1, "k", 6)).isEqualTo(6);

      // When the limit drops to 8, then 2 more pass
      PolicyStore v2 =
          versions(store).rebind(v1, policy(algorithm, Limit.of(8, Duration.ofMinutes(1))));
      assertThat(admitted(v2, "k", 10)).as(algorithm + " at " + clock).isEqualTo(2);

      // When it rises to 12, then 4 more pass: the count of 8 is kept
      PolicyStore v3 =
          versions(store).rebind(v2, policy(algorithm, Limit.of(12, Duration.ofMinutes(1))));
      assertThat(admitted(v3, "k", 10)).as(algorithm + " at " + clock).isEqualTo(4);

      // When it drops below the count, then nothing passes
      PolicyStore v4 =
          versions(store).rebind(v3, policy(algorithm, Limit.of(5, Duration.ofMinutes(1))));
      assertThat(admitted(v4, "k", 10)).as(algorithm + " at " + clock).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "SLIDING_WINDOW_LOG"})
  void aWindowOfAnotherLengthKeepsItsCountInTheNewCurrentWindow(Algorithm algorithm) {
    ManualClock clock = ManualClock.random(11);
    RateLimitStore store = store(clock);
    PolicyStore v1 = store.bind(policy(algorithm, Limit.of(10, Duration.ofMinutes(1))));
    clock.advance(Duration.ofSeconds(7 * 60 + 30)); // the old window's index is 7, the new one's 1
    assertThat(admitted(v1, "k", 6)).isEqualTo(6);

    PolicyStore v2 =
        versions(store).rebind(v1, policy(algorithm, Limit.of(8, Duration.ofMinutes(5))));

    assertThat(admitted(v2, "k", 10)).as(algorithm.toString()).isEqualTo(2);
    clock.advance(Duration.ofMinutes(15));
    assertThat(admitted(v2, "k", 10)).as("the count leaves with the windows").isEqualTo(8);
  }

  @Test
  void aConcurrencyKeyKeepsThePermitsItHolds() {
    ManualClock clock = ManualClock.random(5);
    RateLimitStore store = store(clock);
    PolicyStore v1 = store.bind(Policy.concurrency("live", 5, Duration.ofSeconds(1)));
    assertThat(admitted(v1, "k", 3)).isEqualTo(3);

    PolicyStore v2 =
        versions(store).rebind(v1, Policy.concurrency("live", 2, Duration.ofSeconds(1)));
    assertThat(admitted(v2, "k", 1)).as("3 held, 2 allowed").isZero();

    // A request admitted under the old version ends through its handle: its permit comes back.
    v1.refund("k", 1);
    v1.refund("k", 1);
    assertThat(admitted(v2, "k", 5)).isEqualTo(1);
  }

  @Test
  void aKeyFirstSeenAfterAChangeStartsFreshUnderTheNewLimits() {
    ManualClock clock = ManualClock.random(9);
    RateLimitStore store = store(clock);
    PolicyStore v1 = store.bind(policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(1), 10)));
    assertThat(admitted(v1, "old", 10)).isEqualTo(10);

    PolicyStore v2 =
        versions(store).rebind(v1, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(1), 4)));

    assertThat(admitted(v2, "new", 10)).isEqualTo(4);
    assertThat(admitted(v2, "old", 10)).isZero();
  }

  @Test
  void aKeyUntouchedAcrossSeveralChangesKeepsItsState() {
    ManualClock clock = ManualClock.random(13);
    RateLimitStore store = store(clock);
    Duration minute = Duration.ofMinutes(1);
    PolicyStore v1 = store.bind(policy(Algorithm.FIXED_WINDOW, Limit.of(10, minute)));
    assertThat(admitted(v1, "quiet", 7)).isEqualTo(7);

    PolicyStore v2 =
        versions(store).rebind(v1, policy(Algorithm.FIXED_WINDOW, Limit.of(20, minute)));
    PolicyStore v3 =
        versions(store).rebind(v2, policy(Algorithm.FIXED_WINDOW, Limit.of(9, minute)));

    assertThat(admitted(v3, "quiet", 10)).isEqualTo(2);
  }

  @Test
  void aLimitKeepsTheStateOfTheOldLimitOfItsPeriod() {
    // Given a key that used 8 of 10 per second and 8 of 100 per hour
    ManualClock clock = ManualClock.random(17);
    RateLimitStore store = store(clock);
    Duration hour = Duration.ofHours(1);
    PolicyStore v1 =
        store.bind(
            policy(
                Algorithm.FIXED_WINDOW, Limit.of(10, Duration.ofSeconds(1)), Limit.of(100, hour)));
    assertThat(admitted(v1, "k", 8)).isEqualTo(8);

    // When the per-second limit is dropped and the hourly one lowered to 10
    PolicyStore v2 = versions(store).rebind(v1, policy(Algorithm.FIXED_WINDOW, Limit.of(10, hour)));

    // Then the hourly count of 8 carries over, even an hour's window from now
    clock.advance(sec(5));
    assertThat(admitted(v2, "k", 10)).isEqualTo(2);
  }

  @Test
  void aDecisionThroughTheReplacedHandleIsNotLost() {
    ManualClock clock = ManualClock.random(19);
    RateLimitStore store = store(clock);
    Duration minute = Duration.ofMinutes(1);
    PolicyStore v1 = store.bind(policy(Algorithm.FIXED_WINDOW, Limit.of(10, minute)));
    assertThat(admitted(v1, "k", 3)).isEqualTo(3);

    PolicyStore v2 =
        versions(store).rebind(v1, policy(Algorithm.FIXED_WINDOW, Limit.of(6, minute)));
    int late = admitted(v1, "k", 1); // a request that found the old handle just before the change

    assertThat(late).isEqualTo(1);
    assertThat(admitted(v2, "k", 10)).isEqualTo(2);
  }

  @Test
  void aNewVersionKeepsItsNameAndAlgorithm() {
    RateLimitStore store = store(ManualClock.random(23));
    PolicyStore v1 = store.bind(policy(Algorithm.FIXED_WINDOW, Limit.of(10, sec(1))));

    assertThatThrownBy(
            () ->
                versions(store)
                    .rebind(v1, policy(Algorithm.TOKEN_BUCKET, Limit.bucket(1, sec(1), 5))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("live")
        .hasMessageContaining("token-bucket");
    assertThatThrownBy(
            () ->
                versions(store)
                    .rebind(
                        v1,
                        new Policy(
                            "other",
                            Algorithm.FIXED_WINDOW,
                            List.of(Limit.of(5, sec(1))),
                            FailureMode.FAIL_OPEN)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other");
  }

  @Test
  void aVersionIsReplacedOnce() {
    RateLimitStore store = store(ManualClock.random(29));
    PolicyStore v1 = store.bind(policy(Algorithm.FIXED_WINDOW, Limit.of(10, sec(1))));
    versions(store).rebind(v1, policy(Algorithm.FIXED_WINDOW, Limit.of(5, sec(1))));

    assertThatThrownBy(
            () -> versions(store).rebind(v1, policy(Algorithm.FIXED_WINDOW, Limit.of(7, sec(1)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already replaced");
  }

  private static Duration sec(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}
