package io.github.limiter.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Threads decide on a few keys, through whichever version is current when they look, while the
 * policy's limits are replaced again and again with the same count: a key keeps every charge across
 * the changes, so exactly the capacity is admitted per key, never a fresh burst and never a lost
 * charge.
 */
class RebindUnderLoadTest {

  static final int THREADS = 4;
  static final int KEYS = 3;
  static final int CAPACITY = 500;
  static final int ATTEMPTS_PER_THREAD = 600;

  static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(THREADS + 1);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"FIXED_WINDOW", "TOKEN_BUCKET", "SLIDING_WINDOW_COUNTER", "SLIDING_WINDOW_LOG"})
  void everyChargeSurvivesTheChanges(Algorithm algorithm) throws Exception {
    for (int run = 0; run < 30; run++) {
      InMemoryStore store = InMemoryStore.builder().clock(ManualClock.random(run)).build();
      AtomicReference<PolicyStore> current =
          new AtomicReference<>(store.bind(version(algorithm, 0)));
      CountDownLatch start = new CountDownLatch(1);
      List<Future<int[]>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        workers.add(
            pool.submit(
                () -> {
                  start.await();
                  int[] admitted = new int[KEYS];
                  for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
                    int key = i % KEYS;
                    if (current.get().decide("k" + key, 1).isAllowed()) {
                      admitted[key]++;
                    }
                  }
                  return admitted;
                }));
      }
      Future<?> changes =
          pool.submit(
              () -> {
                start.await();
                for (int v = 1; v <= 50; v++) {
                  current.set(store.rebind(current.get(), version(algorithm, v)));
                  Thread.yield();
                }
                return null;
              });
      start.countDown();
      changes.get();
      int[] total = new int[KEYS];
      for (Future<int[]> worker : workers) {
        int[] admitted = worker.get();
        for (int k = 0; k < KEYS; k++) {
          total[k] += admitted[k];
        }
      }
      for (int k = 0; k < KEYS; k++) {
        assertThat(total[k]).as(algorithm + " run " + run + " key " + k).isEqualTo(CAPACITY);
      }
    }
  }

  /**
   * The same count, so long that nothing refills; the windows alternate their length by version.
   */
  private static Policy version(Algorithm algorithm, int v) {
    Duration day = Duration.ofDays(1);
    Limit limit =
        algorithm.isBucket()
            ? Limit.bucket(CAPACITY, day.multipliedBy(1000), CAPACITY)
            : Limit.of(CAPACITY, day.plusSeconds(v % 2));
    return new Policy("p", algorithm, List.of(limit), FailureMode.FAIL_OPEN);
  }
}
