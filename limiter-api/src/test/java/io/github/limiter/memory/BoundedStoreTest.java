package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Decision;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.memory.InMemoryStore.Overflow;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The store holds at most maxKeys keys, reclaims fresh ones, and cannot be flooded into forgetting.
 */
class BoundedStoreTest {

  static final Duration DAY = Duration.ofDays(1);
  static final Policy PER_MINUTE = Policy.tokenBucket("api", Limit.of(10, Duration.ofMinutes(1)));

  static InMemoryStore store(ManualClock clock, int maxKeys, Overflow overflow) {
    return InMemoryStore.builder().clock(clock).maxKeys(maxKeys).overflow(overflow).build();
  }

  @ParameterizedTest
  @EnumSource(Overflow.class)
  void neverHoldsMoreThanMaxKeys(Overflow overflow) {
    // Given a store of 100 keys
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = store(clock, 100, overflow);

    for (int i = 0; i < 2_000; i++) {
      // When ever new keys arrive, as time goes by
      clock.advance(1_000);
      store.decide(PER_MINUTE, "client-" + i, 1);

      // Then the bound holds
      assertThat(store.size()).isLessThanOrEqualTo(100);
    }
  }

  @Test
  void manyThreadsInsertingNewKeysOvershootTheBoundByAtMostTheThreadCount() throws Exception {
    // Given a store of 200 keys, and 8 threads that each insert 3000 new keys
    int threads = 8;
    ManualClock clock = ManualClock.ticking(ManualClock.NEGATIVE, 1);
    InMemoryStore store = store(clock, 200, Overflow.EVICT);
    AtomicInteger largest = new AtomicInteger();
    AtomicLong unavailable = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      workers.add(
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < 3_000; i++) {
                  if (store.decide(PER_MINUTE, id + "-" + i, 1).outcome() == Outcome.UNAVAILABLE) {
                    unavailable.incrementAndGet();
                  }
                  largest.accumulateAndGet(store.size(), Math::max);
                }
              }));
    }
    workers.forEach(Thread::start);

    // When they run at once
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }

    // Then the store never held more than maxKeys + threads
    assertThat(largest.get()).isLessThanOrEqualTo(200 + threads);
    assertThat(store.size()).isLessThanOrEqualTo(200 + threads);
  }

  // Regression: under EVICT, an insert into a full store whose sweep was busy in another thread
  // went
  // ahead without freeing anything. A sweeper preempted mid-sweep let every other insert through,
  // and the store grew without bound.
  @Test
  void aSweeperHeldMidSweepDoesNotLetOtherInsertsOvershootTheBound() throws Exception {
    // Given a full store of 10 keys
    PausingClock clock = new PausingClock(ManualClock.NEAR_MAX);
    InMemoryStore store =
        InMemoryStore.builder().clock(clock).maxKeys(10).overflow(Overflow.EVICT).build();
    for (int i = 0; i < 10; i++) {
      store.decide(PER_MINUTE, "old-" + i, 1);
    }
    // and a thread whose insert sweeps, held on its second reading of the clock: inside the sweep
    Thread sweeper = new Thread(() -> store.decide(PER_MINUTE, "sweeper", 1));
    clock.pause(sweeper, 1);
    sweeper.start();
    clock.awaitPaused();

    // When another thread brings 100 new keys meanwhile
    List<Decision> decisions = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      decisions.add(store.decide(PER_MINUTE, "new-" + i, 1));
    }
    int sizeWhileSweeping = store.size();
    clock.resume();
    sweeper.join();

    // Then the store stayed within its bound, and the new keys got in all the same: an insert that
    // finds the sweeper busy evicts with a cursor of its own rather than answer 503
    assertThat(sizeWhileSweeping).isLessThanOrEqualTo(10);
    assertThat(decisions).allSatisfy(d -> assertThat(d.outcome()).isEqualTo(Outcome.ALLOWED));
    assertThat(store.size()).isLessThanOrEqualTo(11);
  }

  // Regression: a sweep started to make room in a full store evicted a key even when racing sweeps
  // had made room meanwhile. A small store's batch then held only busy keys, and one was evicted
  // for no need, its limit reset (seen under churn as a hot key admitting twice its capacity).
  @Test
  void aSweepThatFindsRoomMadeMeanwhileEvictsNobody() throws Exception {
    Policy busy = Policy.fixedWindow("busy", Limit.of(1, DAY));
    Policy cold = Policy.tokenBucket("cold", Limit.of(1, Duration.ofNanos(10)));
    int exercised = 0;
    for (int run = 0; run < 30; run++) {
      // Given a full store of 4: two busy keys, two keys fresh again
      PausingClock clock = new PausingClock(ManualClock.JUST_BELOW_ZERO - run);
      InMemoryStore store =
          InMemoryStore.builder().clock(clock).maxKeys(4).overflow(Overflow.EVICT).build();
      store.decide(busy, "busy-0", 1);
      store.decide(busy, "busy-1", 1);
      store.decide(cold, "cold-0", 1);
      store.decide(cold, "cold-1", 1);
      clock.clock.advance(1_000);
      // and a new key whose sweep is held mid-scan, while a second new key waits for that sweep
      Thread first = new Thread(() -> store.decide(busy, "first", 1));
      clock.pause(first, 1);
      first.start();
      clock.awaitPaused();
      AtomicReference<Decision> second = new AtomicReference<>();
      CountDownLatch secondAsking = new CountDownLatch(1);
      Thread waiting =
          new Thread(
              () -> {
                secondAsking.countDown();
                second.set(store.decide(busy, "second", 1));
              });
      waiting.start();
      secondAsking.await();

      // When the held sweep goes on (reclaiming the two fresh keys), and the waiting one sweeps
      // next
      clock.resume();
      first.join();
      waiting.join();

      // Then that second sweep found room and evicted nobody: every busy key is still limited
      List<String> busyKeys = new ArrayList<>(List.of("busy-0", "busy-1", "first"));
      if (second.get().isAllowed()) {
        busyKeys.add("second");
        exercised++;
      }
      for (String key : busyKeys) {
        assertThat(store.decide(busy, key, 1).outcome())
            .as("%s, run %s", key, run)
            .isEqualTo(Outcome.LIMITED);
      }
    }
    assertThat(exercised).as("runs in which the second key got in").isPositive();
  }

  @Test
  void aFullStoreReclaimsFreshKeysForNewOnesAndShrinks() {
    // Given a full store of 100 keys that each made one request
    ManualClock clock = ManualClock.at(ManualClock.JUST_BELOW_ZERO);
    InMemoryStore store = store(clock, 100, Overflow.REJECT_NEW_KEYS);
    for (int i = 0; i < 100; i++) {
      store.decide(PER_MINUTE, "old-" + i, 1);
    }
    assertThat(store.decide(PER_MINUTE, "too-early", 1).outcome()).isEqualTo(Outcome.UNAVAILABLE);

    // When their buckets have refilled (fresh again) and a new key arrives
    clock.advance(Duration.ofMinutes(1));
    Decision newcomer = store.decide(PER_MINUTE, "new", 1);

    // Then it is admitted, and the store shrank: a batch of fresh keys was reclaimed
    assertThat(newcomer.isAllowed()).isTrue();
    assertThat(store.size()).isLessThan(100);
  }

  @Test
  void freshKeysAreReclaimedByTheSweepOnInsertsBeforeTheStoreIsFull() {
    // Given 200 keys that each made one request, in a store with room for many more
    ManualClock clock = ManualClock.at(ManualClock.NEGATIVE);
    InMemoryStore store = store(clock, 10_000, Overflow.EVICT);
    for (int i = 0; i < 200; i++) {
      store.decide(PER_MINUTE, "old-" + i, 1);
    }
    assertThat(store.size()).isEqualTo(200);

    // When they are all fresh again and 100 new keys arrive
    clock.advance(Duration.ofMinutes(1));
    for (int i = 0; i < 100; i++) {
      store.decide(PER_MINUTE, "new-" + i, 1);
    }

    // Then sweeps reclaimed old keys along the way
    assertThat(store.size()).isLessThan(300);
  }

  @Test
  void keysThatAreNotFreshAreNeverReclaimedUnderRejectNewKeys() {
    // Given a full store of busy keys
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = store(clock, 3, Overflow.REJECT_NEW_KEYS);
    Policy twoPerDay = Policy.fixedWindow("day", Limit.of(2, DAY));
    for (String key : List.of("a", "b", "c")) {
      store.decide(twoPerDay, key, 2);
    }

    // When a new key arrives, and the known keys ask again
    Decision newcomer = store.decide(twoPerDay, "d", 1);
    Decision known = store.decide(twoPerDay, "a", 1);

    // Then the new key is unavailable (retry in a second, unverified) and the known keys go on as
    // before
    assertThat(newcomer.outcome()).isEqualTo(Outcome.UNAVAILABLE);
    assertThat(newcomer.retryAfter()).contains(Duration.ofSeconds(1));
    assertThat(newcomer.isVerified()).isFalse();
    assertThat(newcomer.policy()).isEqualTo("day");
    assertThat(known.outcome()).isEqualTo(Outcome.LIMITED);
    assertThat(store.size()).isEqualTo(3);
  }

  @Test
  void underRejectNewKeysKnownKeysKeepBeingAdmitted() {
    // Given a full store
    ManualClock clock = ManualClock.at(ManualClock.JUST_BELOW_ZERO);
    InMemoryStore store = store(clock, 2, Overflow.REJECT_NEW_KEYS);
    store.decide(PER_MINUTE, "a", 1);
    store.decide(PER_MINUTE, "b", 1);

    // When a known key asks 9 more times, and a new key asks
    int admitted = 0;
    for (int i = 0; i < 9; i++) {
      admitted += store.decide(PER_MINUTE, "a", 1).isAllowed() ? 1 : 0;
    }

    // Then the known key gets its whole bucket, the new one nothing
    assertThat(admitted).isEqualTo(9);
    assertThat(store.decide(PER_MINUTE, "c", 1).outcome()).isEqualTo(Outcome.UNAVAILABLE);
  }

  static Stream<Arguments> busyPolicies() {
    return Stream.of(
        Arguments.of(Policy.tokenBucket("token-bucket", Limit.of(5, DAY))),
        Arguments.of(Policy.leakyBucket("leaky-bucket", Limit.of(5, DAY))),
        Arguments.of(Policy.fixedWindow("fixed-window", Limit.of(5, DAY))),
        Arguments.of(Policy.slidingWindowLog("sliding-log", Limit.of(5, DAY))),
        Arguments.of(Policy.slidingWindowCounter("sliding-counter", Limit.of(5, DAY))),
        Arguments.of(
            Policy.fixedWindow("multi-limit", Limit.of(5, DAY), Limit.of(50, Duration.ofDays(7)))));
  }

  // Regression: EVICT chose the scanned key with the shortest time to fresh. For windows that time
  // is
  // the same for every key of a window, and for the sliding log a busy key whose last admission is
  // older than the flood's is nearer to fresh than the flood keys: flooding new keys evicted the
  // busy key and gave it its whole limit back. The victim is now the key that would regain least.
  @ParameterizedTest(name = "{0}")
  @MethodSource("busyPolicies")
  void underEvictAClientFloodingNewKeysCannotResetItsOwnBusyKey(Policy policy) {
    // Given a store of 50 keys, a control store without the flood, and a busy key that used its
    // whole limit in both
    ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
    InMemoryStore store = store(clock, 50, Overflow.EVICT);
    InMemoryStore control = store(clock, 50, Overflow.EVICT);
    for (int i = 0; i < 5; i++) {
      assertThat(store.decide(policy, "busy", 1).isAllowed()).isTrue();
      control.decide(policy, "busy", 1);
    }
    assertThat(store.decide(policy, "busy", 1).outcome()).isEqualTo(Outcome.LIMITED);

    // When the same client floods 2000 new keys, one request each, as time goes by a little
    for (int i = 0; i < 2_000; i++) {
      clock.advance(1_000);
      assertThat(store.decide(policy, "flood-" + i, 1).isAllowed()).isTrue();
    }

    // Then its busy key is still there: decided exactly as without the flood
    Decision after = store.decide(policy, "busy", 1);
    assertThat(after).isEqualTo(control.decide(policy, "busy", 1));
    if (!policy.name().equals("leaky-bucket")) {
      // (2 ms of leak let one more into the leaky bucket, flood or not: level < capacity)
      assertThat(after.outcome()).isEqualTo(Outcome.LIMITED);
    }
    assertThat(store.size()).isLessThanOrEqualTo(50);
  }

  @Test
  void concurrentInsertReclaimEvictAndDecideNeverLoseAnAdmission() throws Exception {
    for (int run = 0; run < 10; run++) {
      // Given 4 hot keys of capacity 100 (refill negligible) and a store of 64 keys, churned by
      // threads bringing new keys of a policy that is fresh again a few ticks after each request
      ManualClock clock = ManualClock.ticking(ManualClock.NEAR_MAX - run, 1);
      InMemoryStore store = store(clock, 64, Overflow.EVICT);
      List<Policy> hotPolicies =
          List.of(
              Policy.tokenBucket("hot-tb", Limit.of(100, DAY)),
              Policy.fixedWindow("hot-fw", Limit.of(100, DAY)),
              Policy.slidingWindowLog("hot-log", Limit.of(100, DAY)),
              Policy.slidingWindowCounter("hot-swc", Limit.of(100, DAY)));
      Policy cold = Policy.tokenBucket("cold", Limit.of(1, Duration.ofNanos(4)));
      AtomicLong[] admitted = {
        new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()
      };
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int id = t;
        threads.add(
            new Thread(
                () -> {
                  await(start);
                  for (int i = 0; i < 400; i++) {
                    int k = (i + id) % 4;
                    if (store.decide(hotPolicies.get(k), "hot", 1).isAllowed()) {
                      admitted[k].incrementAndGet();
                    }
                  }
                }));
        threads.add(
            new Thread(
                () -> {
                  await(start);
                  for (int i = 0; i < 3_000; i++) {
                    store.decide(cold, "cold-" + id + "-" + i, 1);
                  }
                }));
      }
      threads.forEach(Thread::start);

      // When they all run at once
      start.countDown();
      for (Thread thread : threads) {
        thread.join();
      }

      // Then each hot key admitted exactly its capacity, and the bound held
      for (int k = 0; k < 4; k++) {
        assertThat(admitted[k].get())
            .as("%s, run %s", hotPolicies.get(k).name(), run)
            .isEqualTo(100);
      }
      assertThat(store.size()).isLessThanOrEqualTo(64 + 8);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void maxKeysMustBePositive() {
    assertThatThrownBy(() -> InMemoryStore.builder().maxKeys(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxKeys")
        .hasMessageContaining("0");
  }
}
