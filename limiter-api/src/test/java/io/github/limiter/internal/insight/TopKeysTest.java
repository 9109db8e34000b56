package io.github.limiter.internal.insight;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.TopKeysSettings;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Each policy's top keys: heavy keys first under a flood, windows turning on the clock, threads.
 */
class TopKeysTest {

  private static final Duration WINDOW = Duration.ofMinutes(1);

  private final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  private final TopKeys top = new TopKeys(new TopKeysSettings(true, 10, WINDOW), clock);

  @Test
  void underAFloodOfHundredThousandKeysTheThreeHeavyKeysComeFirstInFixedMemory() {
    // Given 100,000 distinct keys, each once and admitted, and 3 heavy keys that are rejected
    for (int i = 0; i < 100_000; i++) {
      top.count("api", "203.0.113." + i, false);
      if (i % 100 == 0) {
        top.count("api", "heavy-1", true);
        top.count("api", "heavy-2", true);
        top.count("api", "heavy-3", true);
      }
    }

    // When the operator looks
    TopKeysView view = top.view("api");

    // Then the heavy keys lead both lists
    assertThat(view.byRequests().subList(0, 3))
        .extracting(KeyCount::key)
        .containsExactlyInAnyOrder("heavy-1", "heavy-2", "heavy-3");
    assertThat(view.byRejections())
        .extracting(KeyCount::key)
        .containsExactlyInAnyOrder("heavy-1", "heavy-2", "heavy-3");
    assertThat(view.byRequests()).hasSize(10);
    assertThat(view.requests()).isEqualTo(103_000);
    assertThat(view.rejections()).isEqualTo(3_000);
    // And memory is fixed: each sketch counts at most its capacity of keys
    assertThat(top.capacity()).isEqualTo(256);
    assertThat(top.keysHeld()).isLessThanOrEqualTo(4 * top.capacity());

    // And a second flood, in the next window, holds no more
    clock.advance(WINDOW);
    for (int i = 0; i < 100_000; i++) {
      top.count("api", "198.51.100." + i, true);
    }
    assertThat(top.keysHeld()).isLessThanOrEqualTo(4 * top.capacity());
  }

  @Test
  void theListsCoverTheCurrentWindowAndTheOneBefore() {
    // Given a key counted in the first window
    top.count("api", "early", true);
    clock.advance(Duration.ofSeconds(30));
    assertThat(top.view("api").covered()).isEqualTo(Duration.ofSeconds(30));

    // When the next window begins, with another key in it
    clock.advance(WINDOW);
    top.count("api", "late", false);

    // Then both are listed, and the lists cover the previous window and the current one
    TopKeysView both = top.view("api");
    assertThat(both.byRequests()).extracting(KeyCount::key).containsExactly("early", "late");
    assertThat(both.byRejections()).containsExactly(new KeyCount("early", 1, 0));
    assertThat(both.covered()).isEqualTo(WINDOW.plusSeconds(30));

    // When one more window passes, the first key is forgotten
    clock.advance(WINDOW);
    TopKeysView later = top.view("api");
    assertThat(later.byRequests()).containsExactly(new KeyCount("late", 1, 0));
    assertThat(later.byRejections()).isEmpty();

    // And after a quiet spell longer than two windows, nothing is left
    clock.advance(WINDOW.multipliedBy(5));
    top.count("api", "new", false);
    assertThat(top.view("api").byRequests()).containsExactly(new KeyCount("new", 1, 0));
  }

  @Test
  void eachPolicyHasItsOwnLists() {
    top.count("api", "a", false);
    top.count("login", "b", true);

    assertThat(top.view("api").byRequests()).extracting(KeyCount::key).containsExactly("a");
    assertThat(top.view("login").byRejections()).extracting(KeyCount::key).containsExactly("b");
    assertThat(top.view("other").byRequests()).isEmpty();
    assertThat(top.policies()).containsExactly("api", "login");
  }

  @Test
  void severalThreadsCountWithoutLosingARequest() throws Exception {
    // Given 4 threads, each counting 20,000 requests: half from one shared heavy key
    int threads = 4;
    int each = 20_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < each; i++) {
                    boolean heavy = i % 2 == 0;
                    top.count("api", heavy ? "heavy" : "t" + thread + "-" + i, heavy);
                    if (i % 5000 == 0) {
                      top.view("api"); // readers meanwhile
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> future : done) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    // Then every request was counted, and the heavy key's count is exact
    TopKeysView view = top.view("api");
    assertThat(view.requests()).isEqualTo((long) threads * each);
    assertThat(view.rejections()).isEqualTo((long) threads * each / 2);
    assertThat(view.byRejections()).containsExactly(new KeyCount("heavy", threads * each / 2, 0));
    assertThat(view.byRequests().get(0).key()).isEqualTo("heavy");
    assertThat(view.byRequests().get(0).guaranteed()).isEqualTo(threads * each / 2);
  }
}
