package io.github.limiter.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract every {@link RateLimitStore} must pass: its decisions are exactly those of the pure
 * functions of {@code io.github.limiter.internal.algorithm}, as computed by {@link ReferenceStore}.
 *
 * <p>Extend it and implement {@link #createStore(NanoClock)}: the store must take {@code now} from
 * the given clock (for a store that normally trusts a server clock, its caller-time mode), as the
 * reading minus the reading when the store was created, at the resolution of {@link #tickNanos()}.
 * Every test drives time through a {@link ManualClock} started at hostile origins, and never
 * sleeps.
 *
 * <pre>{@code
 * class InMemoryStoreContractTest extends RateLimitStoreContract {
 *   protected RateLimitStore createStore(NanoClock clock) {
 *     return InMemoryStore.builder().clock(clock).build();
 *   }
 * }
 * }</pre>
 */
public abstract class RateLimitStoreContract {

  private final List<RateLimitStore> created = new ArrayList<>();

  /** A new, empty store that reads {@code clock}. Closed by the contract after each test. */
  protected abstract RateLimitStore createStore(NanoClock clock);

  /**
   * The store's time resolution in nanoseconds: 1 for in-memory, 1000 for a store that keeps
   * microseconds. Times the contract uses are whole ticks, and "one tick earlier" means this.
   */
  protected long tickNanos() {
    return 1;
  }

  /** Seeds for the random traces; a subclass over a slow transport may use fewer. */
  protected long[] traceSeeds() {
    return new long[] {1, 2, 3};
  }

  /** Steps per random trace. */
  protected int traceLength() {
    return 300;
  }

  @AfterEach
  void closeStores() {
    for (RateLimitStore store : created) {
      store.close();
    }
    created.clear();
  }

  // ---------------------------------------------------------------------------------- policies

  /** One limit: 5 per second (windows), or 5 per second with a burst of 8 (buckets). */
  protected static Policy single(Algorithm algorithm, String name) {
    Limit limit =
        algorithm.isBucket()
            ? Limit.bucket(5, Duration.ofSeconds(1), 8)
            : Limit.of(5, Duration.ofSeconds(1));
    return new Policy(name, algorithm, List.of(limit), FailureMode.FAIL_OPEN);
  }

  /** Two limits, a short and a long one, so that either can bind. */
  protected static Policy multi(Algorithm algorithm, String name) {
    List<Limit> limits =
        algorithm.isBucket()
            ? List.of(
                Limit.bucket(3, Duration.ofMillis(100), 4),
                Limit.bucket(10, Duration.ofSeconds(1), 10))
            : List.of(Limit.of(3, Duration.ofMillis(100)), Limit.of(10, Duration.ofSeconds(1)));
    return new Policy(name, algorithm, limits, FailureMode.FAIL_OPEN);
  }

  /** The single and, but for concurrency (which has one limit), the multi policy. */
  private static List<Policy> policies(Algorithm algorithm, String name) {
    return algorithm == Algorithm.CONCURRENCY
        ? List.of(single(algorithm, name))
        : List.of(single(algorithm, name), multi(algorithm, name + "-multi"));
  }

  private static List<Supplier<ManualClock>> origins() {
    return List.of(() -> ManualClock.random(42), ManualClock::nearMaxValue, ManualClock::negative);
  }

  // ------------------------------------------------------------------------------------- tests

  /**
   * A scripted sequence: bursts, exhaustion, partial refill, multi-permit requests, a request above
   * capacity, one-tick steps, and long idle periods.
   */
  private static final String SCRIPT =
      String.join(
          "\n",
          "+0 a 1",
          "+0 a 1",
          "+0 a 2",
          "+0 a 1",
          "+0 a 1",
          "+0 a 1",
          "+0 a 1",
          "+0 a 1",
          "+0 b 1",
          "+1t a 1",
          "+50ms a 1",
          "+150ms a 1",
          "+1t a 1",
          "+200ms a 3",
          "+0 a 9",
          "+1t b 2",
          "+399ms a 1",
          "+1t a 1",
          "+1t a 1",
          "+1s b 5",
          "+1t b 1",
          "+2500ms a 2",
          "+7t a 1",
          "+0 a 1",
          "+0 a 1",
          "+0 a 1",
          "+0 a 1",
          "+600ms a 1",
          "+400ms a 1",
          "+0 a 4",
          "+0 a 4",
          "+333ms a 1",
          "+10s a 1",
          "+1t a 8",
          "+0 a 1");

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void scriptedSequenceMatchesThePureFunction(Algorithm algorithm) {
    for (Supplier<ManualClock> origin : origins()) {
      ContractFixture f = fixture(origin.get());
      f.runScript(single(algorithm, "scripted"), SCRIPT);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
  void scriptedSequenceUnderSeveralLimitsMatchesThePureFunction(Algorithm algorithm) {
    // (a concurrency policy has one limit)
    for (Supplier<ManualClock> origin : origins()) {
      ContractFixture f = fixture(origin.get());
      f.runScript(multi(algorithm, "scripted-multi"), SCRIPT);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
  void aRejectionBySeveralLimitsChargesNone(Algorithm algorithm) {
    // (a concurrency policy has one limit)
    // Given two stores fed the same requests, except that one also sees requests the short limit
    // rejects
    Policy policy = multi(algorithm, "all-or-nothing");
    ManualClock clock = ManualClock.random(7);
    ContractFixture withRejections = fixture(clock);
    ContractFixture without = fixture(clock);
    long[] gapsMillis = {0, 0, 0, 20, 0, 0, 90, 0, 0, 0, 0, 250, 0, 0, 0, 0, 0};
    for (long gap : gapsMillis) {
      clock.advance(Duration.ofMillis(gap));
      Decision first = withRejections.decide(policy, "k", 1);
      if (!first.isAllowed()) {
        // When they are rejected, a second rejected request changes nothing either
        assertThat(withRejections.decide(policy, "k", 1).isAllowed()).isFalse();
        continue;
      }
      // Then every admission in the one store is the same decision in the other
      assertThat(without.decide(policy, "k", 1)).isEqualTo(first);
    }
    assertThat(withRejections.rejections).as("the sequence must reach a rejection").isPositive();
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void permitsAboveCapacityExceedCapacityWithoutRetryAfter(Algorithm algorithm) {
    for (Policy policy : policies(algorithm, "too-many")) {
      ContractFixture f = fixture(ManualClock.negative());
      long capacity = policy.limits().stream().mapToLong(Limit::burst).max().orElseThrow();
      Decision d = f.decide(policy, "k", capacity + 1);
      assertThat(d.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
      assertThat(d.retryAfter()).isEmpty();
      assertThat(d.isAllowed()).isFalse();
      // Under several limits, exceeding only the smaller one is enough
      long smallest = policy.limits().stream().mapToLong(Limit::burst).min().orElseThrow();
      Decision small = f.decide(policy, "k", smallest + 1);
      assertThat(small.outcome()).isEqualTo(Outcome.EXCEEDS_CAPACITY);
      assertThat(small.retryAfter()).isEmpty();
      // And it charged nothing: the next request sees a fresh key
      assertThat(f.decide(policy, "k", 1).isAllowed()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
  void aRetryExactlyAtRetryAfterIsAdmittedAndOneTickEarlierIsNot(Algorithm algorithm) {
    // (a concurrency limit never refills: its retry-after is a hint, tested below)
    long tick = tickNanos();
    for (Policy policy : policies(algorithm, "retry")) {
      for (Supplier<ManualClock> origin : origins()) {
        ManualClock clock = origin.get();
        ContractFixture f = fixture(clock);
        Random random = new Random(11);
        int checked = 0;
        for (int i = 0; i < 60; i++) {
          long permits = 1 + random.nextInt(2);
          Decision d = f.decide(policy, "k", permits);
          if (d.isAllowed()) {
            clock.advance(tick * random.nextInt(3));
            continue;
          }
          // Given a rejection that says when to retry
          assertThat(d.outcome()).isEqualTo(Outcome.LIMITED);
          long retry = d.retryAfterNanos();
          assertThat(retry).as("retryAfter of %s", d).isPositive();
          assertThat(retry % tick).as("retryAfter %s is whole ticks", retry).isZero();
          // When the client retries one tick early, then it is rejected
          clock.advance(retry - tick);
          assertThat(f.decide(policy, "k", permits).isAllowed())
              .as("one tick before %s", d)
              .isFalse();
          // When it retries exactly then, then it is admitted
          clock.advance(tick);
          assertThat(f.decide(policy, "k", permits).isAllowed()).as("exactly at %s", d).isTrue();
          checked++;
        }
        assertThat(checked).as("rejections checked").isGreaterThan(5);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void keysAreIndependent(Algorithm algorithm) {
    Policy policy = single(algorithm, "keys");
    ContractFixture f = fixture(ManualClock.nearMaxValue());
    Decision firstOfA = f.decide(policy, "a", 1);
    while (f.decide(policy, "a", 1).isAllowed()) {
      // exhaust a
    }
    // A key whose name contains the others' separators is still its own key
    for (String other : List.of("b", "a:0", "{a}", "a}", "b{x}:1", "", "ä ö", "a%7D")) {
      assertThat(f.decide(policy, other, 1)).as("key '%s'", other).isEqualTo(firstOfA);
    }
    assertThat(f.decide(policy, "a", 1).isAllowed()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void theSameKeyUnderTwoPoliciesIsIndependent(Algorithm algorithm) {
    Policy one = single(algorithm, "one");
    Policy two = single(algorithm, "two");
    Policy twoMulti =
        algorithm == Algorithm.CONCURRENCY // one limit only
            ? single(algorithm, "one.multi")
            : multi(algorithm, "one.multi");
    ContractFixture f = fixture(ManualClock.random(3));
    Decision fresh = f.decide(one, "k", 1);
    while (f.decide(one, "k", 1).isAllowed()) {
      // exhaust one:k
    }
    assertThat(f.decide(two, "k", 1))
        .isEqualTo(fresh.isAllowed() ? withPolicy(fresh, "two") : fresh);
    assertThat(f.decide(twoMulti, "k", 1).isAllowed()).isTrue();
    assertThat(f.decide(one, "k", 1).isAllowed()).isFalse();
  }

  private static Decision withPolicy(Decision d, String policy) {
    return Decision.allowed(policy, d.limit(), d.remaining(), d.resetAfterNanos(), d.delayNanos());
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void aRefundGivesPermitsBack(Algorithm algorithm) {
    for (Policy policy : policies(algorithm, "refund")) {
      ManualClock clock = ManualClock.random(5);
      ContractFixture f = fixture(clock);
      Decision afterOne = f.decide(policy, "k", 1);
      Decision afterThree = f.decide(policy, "k", 2);
      assertThat(afterThree.remaining()).isLessThan(afterOne.remaining());
      // When two permits are given back
      f.refund(policy, "k", 2);
      // Then the next request sees them again
      Decision next = f.decide(policy, "k", 1);
      assertThat(next.remaining()).isGreaterThan(afterThree.remaining() - 1);
      // And a refund of an unknown key is a harmless no-op
      f.refund(policy, "never-seen", 3);
      clock.advance(tickNanos());
      f.decide(policy, "never-seen", 1);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Algorithm.class, mode = EnumSource.Mode.EXCLUDE, names = "CONCURRENCY")
  void debtDelaysLaterRequestsAndRetryAfterStaysExact(Algorithm algorithm) {
    // (a concurrency limit never pays debt off with time: a charge is held until given back)
    long tick = tickNanos();
    for (Policy policy : List.of(single(algorithm, "debt"), multi(algorithm, "debt-multi"))) {
      long capacity = policy.limits().stream().mapToLong(Limit::burst).min().orElseThrow();
      for (long debt : new long[] {1, capacity / 2 + 1, capacity, 5 * capacity}) {
        ManualClock clock = ManualClock.random(debt);
        ContractFixture f = fixture(clock);
        // Given a request admitted at one permit whose actual cost turns out far higher
        assertThat(f.decide(policy, "k", 1).isAllowed()).isTrue();
        f.adjust(policy, "k", capacity + debt);
        // Then the key owes: the next request is refused, and told when to come back
        Decision refused = f.decide(policy, "k", 1);
        assertThat(refused.outcome()).isEqualTo(Outcome.LIMITED);
        long retry = refused.retryAfterNanos();
        // When the client retries one tick early, then it is rejected; exactly then, admitted
        clock.advance(retry - tick);
        assertThat(f.decide(policy, "k", 1).isAllowed())
            .as("one tick before %s", refused)
            .isFalse();
        clock.advance(tick);
        assertThat(f.decide(policy, "k", 1).isAllowed()).as("exactly at %s", refused).isTrue();
        // And a debt on a key never seen creates it owing
        f.adjust(policy, "new", 2 * capacity);
        assertThat(f.decide(policy, "new", 1).isAllowed()).isFalse();
      }
      // And a refund larger than what was charged leaves a fresh key, no credit
      ManualClock clock = ManualClock.random(9);
      ContractFixture f = fixture(clock);
      Decision first = f.decide(policy, "c", 1);
      f.adjust(policy, "c", -3 * capacity);
      assertThat(f.decide(policy, "c", 1)).isEqualTo(first);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"TOKEN_BUCKET", "LEAKY_BUCKET"})
  void initialTokensOrLevelApplyToANewKey(Algorithm algorithm) {
    // Token bucket: starts with 1 token of 4; leaky bucket: starts with a level of 3 of 4
    Limit limit =
        Limit.bucket(2, Duration.ofSeconds(1), 4)
            .withInitial(algorithm == Algorithm.TOKEN_BUCKET ? 1 : 3);
    Policy policy = new Policy("initial", algorithm, List.of(limit), FailureMode.FAIL_OPEN);
    ContractFixture f = fixture(ManualClock.random(9));
    f.runScript(policy, "+0 k 1\n+0 k 1\n+100ms k 1\n+400ms k 1\n+1t k 1\n+0 k 2\n+500ms k 1");
  }

  /**
   * A key exists from its first request on, admitted or not: a bucket that starts below full must
   * keep the state it was created with, or a client that retries as told would find it anew.
   */
  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"TOKEN_BUCKET", "LEAKY_BUCKET"})
  void aRejectedFirstRequestCreatesTheKeyWithItsInitialState(Algorithm algorithm) {
    // Given buckets that reject their first request: no tokens, or a level at capacity
    boolean token = algorithm == Algorithm.TOKEN_BUCKET;
    Limit first = Limit.bucket(2, Duration.ofSeconds(1), 4).withInitial(token ? 0 : 4);
    // and, under several limits, a second limit that admits but also starts below full
    Limit second = Limit.bucket(10, Duration.ofSeconds(1), 10).withInitial(token ? 5 : 3);
    Policy single = new Policy("rejected-first", algorithm, List.of(first), FailureMode.FAIL_OPEN);
    Policy multi =
        new Policy(
            "rejected-first-multi", algorithm, List.of(first, second), FailureMode.FAIL_OPEN);
    for (Policy policy : List.of(single, multi)) {
      for (Supplier<ManualClock> origin : origins()) {
        ManualClock clock = origin.get();
        ContractFixture f = fixture(clock);
        // When the first request is rejected
        Decision rejected = f.decide(policy, "k", 1);
        assertThat(rejected.outcome())
            .as("first request under %s", policy)
            .isEqualTo(Outcome.LIMITED);
        // Then retrying one tick early is rejected, and exactly when told is admitted, as if the
        // key had been created by the rejection
        clock.advance(rejected.retryAfterNanos() - tickNanos());
        assertThat(f.decide(policy, "k", 1).isAllowed()).isFalse();
        clock.advance(tickNanos());
        assertThat(f.decide(policy, "k", 1).isAllowed()).isTrue();
        // And later requests, partial refills and a rejected first request of another key too,
        // decide exactly as the pure function
        f.runScript(
            policy,
            String.join(
                "\n",
                "+0 k 1",
                "+100ms k 1",
                "+0 other 2",
                "+150ms other 1",
                "+1t k 2",
                "+350ms other 1",
                "+0 k 1",
                "+2s k 3",
                "+0 k 2",
                "+0 other 1",
                "+10s k 1"));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void randomTracesMatchThePureFunction(Algorithm algorithm) {
    for (long seed : traceSeeds()) {
      for (Policy policy : policies(algorithm, "trace")) {
        ManualClock clock = ManualClock.random(seed);
        ContractFixture f = fixture(clock);
        f.runRandomTrace(policy, new Random(seed), traceLength());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void concurrentRequestsOnOneKeyAdmitExactlyTheCapacity(Algorithm algorithm) throws Exception {
    // Given a frozen clock and a limit of 120 that does not refill meanwhile
    Limit limit =
        algorithm.isBucket()
            ? Limit.bucket(1, Duration.ofHours(1), 120)
            : Limit.of(120, Duration.ofHours(1));
    Policy policy = new Policy("concurrent", algorithm, List.of(limit), FailureMode.FAIL_OPEN);
    RateLimitStore store = newStore(ManualClock.random(13));
    int threads = 8;
    int perThread = 40;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> admitted = new ArrayList<>();
      PolicyStore bound = store.bind(policy);
      for (int t = 0; t < threads; t++) {
        // Half the threads decide through the bound policy, half through the store: one state.
        boolean viaBound = t % 2 == 0;
        Callable<Integer> worker =
            () -> {
              start.await();
              int n = 0;
              for (int i = 0; i < perThread; i++) {
                Decision d = viaBound ? bound.decide("hot", 1) : store.decide(policy, "hot", 1);
                if (d.isAllowed()) {
                  n++;
                }
              }
              return n;
            };
        admitted.add(pool.submit(worker));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> n : admitted) {
        total += n.get(60, TimeUnit.SECONDS);
      }
      // Then exactly the capacity was admitted, no more and no fewer
      assertThat(total).isEqualTo(120);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aConcurrencyLimitHoldsItsPermitsUntilTheyAreReleasedHoweverTimePasses() {
    // Given at most 3 in flight, with a Retry-After hint of 2 s
    Policy policy =
        new Policy(
            "in-flight",
            Algorithm.CONCURRENCY,
            List.of(Limit.of(3, Duration.ofSeconds(2))),
            FailureMode.FAIL_OPEN);
    for (Supplier<ManualClock> origin : origins()) {
      ManualClock clock = origin.get();
      ContractFixture f = fixture(clock);
      f.decide(policy, "k", 2);
      f.decide(policy, "k", 1);
      // When a minute passes, a fourth is still refused, told to retry after the hint
      clock.advance(Duration.ofMinutes(1));
      Decision refused = f.decide(policy, "k", 1);
      assertThat(refused.outcome()).isEqualTo(Outcome.LIMITED);
      assertThat(refused.retryAfter()).hasValue(Duration.ofSeconds(2));
      clock.advance(Duration.ofSeconds(2));
      assertThat(f.decide(policy, "k", 1).isAllowed()).isFalse();
      // When one is released, one passes, and the next does not
      f.refund(policy, "k", 1);
      assertThat(f.decide(policy, "k", 1).isAllowed()).isTrue();
      assertThat(f.decide(policy, "k", 1).isAllowed()).isFalse();
      // And when all are released the key is as new
      f.refund(policy, "k", 3);
      assertThat(f.decide(policy, "k", 3).remaining()).isZero();
    }
  }

  @Test
  void decisionsAreVerified() {
    ContractFixture f = fixture(ManualClock.at(0));
    for (Algorithm algorithm : Algorithm.values()) {
      Decision d = f.decide(single(algorithm, "verified-" + algorithm.configName()), "k", 1);
      assertThat(d.isVerified()).isTrue();
      assertThat(d.isAllowed()).isTrue();
    }
  }

  // ----------------------------------------------------------------------------------- fixture

  private RateLimitStore newStore(NanoClock clock) {
    RateLimitStore store = createStore(clock);
    created.add(store);
    return store;
  }

  private ContractFixture fixture(ManualClock clock) {
    return new ContractFixture(clock, newStore(clock), tickNanos());
  }
}
