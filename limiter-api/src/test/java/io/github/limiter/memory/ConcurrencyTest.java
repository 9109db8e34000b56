package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Eight threads hammer one key of capacity 1000 whose refill is negligible (one a day): exactly
 * 1000 are admitted, every run, for the one-long algorithms and the snapshot ones alike.
 */
class ConcurrencyTest {

  static final int THREADS = 8;
  static final int RUNS = 20;
  static final int CAPACITY = 1000;
  static final int ATTEMPTS_PER_THREAD = 250;
  static final Duration DAY = Duration.ofDays(1);

  static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(THREADS);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  static Stream<Arguments> policies() {
    Limit perDay = Limit.of(CAPACITY, DAY);
    return Stream.of(
        Arguments.of(Policy.tokenBucket("token-bucket", perDay)),
        Arguments.of(Policy.leakyBucket("leaky-bucket", perDay)),
        Arguments.of(Policy.fixedWindow("fixed-window", perDay)),
        Arguments.of(Policy.slidingWindowLog("sliding-log", perDay)),
        Arguments.of(Policy.slidingWindowCounter("sliding-counter", perDay)),
        Arguments.of(Policy.tokenBucket("multi-limit", perDay, Limit.of(100_000, DAY))),
        Arguments.of(Policy.fixedWindow("multi-window", Limit.of(5_000, DAY), perDay)));
  }

  /** Runs {@code attempts} per thread, released together by a start gate; returns the decisions. */
  static List<Decision> hammer(
      InMemoryStore store, Policy policy, String key, long permits, int attempts) throws Exception {
    CountDownLatch ready = new CountDownLatch(THREADS);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<List<Decision>>> results = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Callable<List<Decision>> task =
          () -> {
            List<Decision> decisions = new ArrayList<>(attempts);
            ready.countDown();
            start.await();
            for (int i = 0; i < attempts; i++) {
              decisions.add(store.decide(policy, key, permits));
            }
            return decisions;
          };
      results.add(pool.submit(task));
    }
    ready.await();
    start.countDown();
    List<Decision> all = new ArrayList<>();
    for (Future<List<Decision>> result : results) {
      all.addAll(result.get());
    }
    return all;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void exactlyTheCapacityIsAdmittedUnderContentionEveryRun(Policy policy) throws Exception {
    for (int run = 0; run < RUNS; run++) {
      // Given a fresh store on a clock standing near Long.MAX_VALUE
      ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX + run);
      InMemoryStore store = InMemoryStore.builder().clock(clock).build();

      // When eight threads ask 2000 times in all for one key
      List<Decision> decisions = hammer(store, policy, "hot", 1, ATTEMPTS_PER_THREAD);

      // Then exactly 1000 were admitted, each seeing its own state (remaining 999..0)
      List<Decision> admitted = decisions.stream().filter(Decision::isAllowed).toList();
      assertThat(admitted).as("run %s", run).hasSize(CAPACITY);
      assertThat(admitted.stream().mapToLong(Decision::remaining).distinct().count())
          .as("distinct remaining, run %s", run)
          .isEqualTo(CAPACITY);
      assertThat(decisions)
          .filteredOn(d -> !d.isAllowed())
          .allSatisfy(d -> assertThat(d.outcome()).isEqualTo(Decision.Outcome.LIMITED));
      assertThat(store.decide(policy, "hot", 1).isAllowed()).isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void exactlyTheCapacityIsAdmittedWhileEveryReadingMovesTheClock(Policy policy) throws Exception {
    for (int run = 0; run < RUNS; run++) {
      // Given a clock that ticks 1 ns on every reading, so that racing threads see different times
      ManualClock clock = ManualClock.ticking(ManualClock.JUST_BELOW_ZERO - run, 1);
      InMemoryStore store = InMemoryStore.builder().clock(clock).build();

      // When eight threads ask 2000 times in all for one key
      long admitted =
          hammer(store, policy, "hot", 1, ATTEMPTS_PER_THREAD).stream()
              .filter(Decision::isAllowed)
              .count();

      // Then exactly 1000 pass; the leaky bucket admits while level < capacity, so once any time
      // has leaked after the 1000th it takes exactly one more (as the article's 21 in a queue of
      // 20)
      long expected = policy.name().equals("leaky-bucket") ? CAPACITY + 1 : CAPACITY;
      assertThat(admitted).as("run %s", run).isEqualTo(expected);
    }
  }

  @Test
  void multiPermitRequestsUnderContentionNeverOverAdmit() throws Exception {
    for (int run = 0; run < RUNS; run++) {
      // Given a token bucket of 1000 and requests of 3 permits
      ManualClock clock = ManualClock.ticking(ManualClock.JUST_BELOW_ZERO - run, 1);
      InMemoryStore store = InMemoryStore.builder().clock(clock).build();
      Policy policy = Policy.slidingWindowLog("log", Limit.of(CAPACITY, DAY));

      // When eight threads ask for 3 permits at a time
      List<Decision> decisions = hammer(store, policy, "hot", 3, 60);

      // Then exactly floor(1000 / 3) requests pass: 333, leaving 1 permit
      assertThat(decisions.stream().filter(Decision::isAllowed).count())
          .as("run %s", run)
          .isEqualTo(CAPACITY / 3);
      assertThat(store.decide(policy, "hot", 1).remaining()).isZero();
    }
  }
}
