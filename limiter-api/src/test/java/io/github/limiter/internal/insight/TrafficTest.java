package io.github.limiter.internal.insight;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Each policy's requests per second: seconds turning on the clock, the ring's reuse, threads. */
class TrafficTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  // A clock that passes Long.MAX_VALUE within the five minutes counted
  private final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX + 1);
  private final Traffic traffic = new Traffic(clock);

  @Test
  void eachSecondCountsItsOwnAdmissionsAndRejections() {
    // Given 3 admitted and 1 rejected request in one second, then 2 rejected two seconds later
    count("api", 3, false);
    count("api", 1, true);
    clock.advance(SECOND.multipliedBy(2));
    count("api", 2, true);
    count("other", 7, false);

    // When the operator looks
    Traffic.Series series = traffic.series("api");

    // Then the last second holds the 2, the one two seconds before the 3 and the 1
    int now = Traffic.SECONDS - 1;
    assertThat(series.admitted()).hasSize(Traffic.SECONDS);
    assertThat(series.rejected()[now]).isEqualTo(2);
    assertThat(series.admitted()[now]).isZero();
    assertThat(series.admitted()[now - 2]).isEqualTo(3);
    assertThat(series.rejected()[now - 2]).isEqualTo(1);
    assertThat(LongStream.of(series.admitted()).sum()).isEqualTo(3);
    assertThat(LongStream.of(series.rejected()).sum()).isEqualTo(3);
    // And each policy counts apart
    assertThat(LongStream.of(traffic.series("other").admitted()).sum()).isEqualTo(7);
    assertThat(LongStream.of(traffic.series("unseen").admitted()).sum()).isZero();
  }

  @Test
  void aSecondOlderThanFiveMinutesIsForgottenAndItsSlotCountsAnew() {
    // Given 5 requests now
    count("api", 5, false);

    // When the clock passes 299 seconds, then they are the oldest second shown
    clock.advance(SECOND.multipliedBy(Traffic.SECONDS - 1));
    assertThat(traffic.series("api").admitted()[0]).isEqualTo(5);

    // And one second later they are gone, and a request then counts in their slot from 1
    clock.advance(SECOND);
    assertThat(LongStream.of(traffic.series("api").admitted()).sum()).isZero();
    count("api", 1, false);
    assertThat(traffic.series("api").admitted()[Traffic.SECONDS - 1]).isEqualTo(1);
    assertThat(LongStream.of(traffic.series("api").admitted()).sum()).isEqualTo(1);

    // And after an hour without requests, nothing old shows again
    clock.advance(Duration.ofHours(1));
    assertThat(LongStream.of(traffic.series("api").admitted()).sum()).isZero();
  }

  @Test
  void countsFromEightThreadsAtOnceAreAllKept() throws Exception {
    int threads = 8;
    int each = 20_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        boolean rejected = t % 2 == 1;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  count("api", each, rejected);
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Traffic.Series series = traffic.series("api");
    assertThat(series.admitted()[Traffic.SECONDS - 1]).isEqualTo(threads / 2 * (long) each);
    assertThat(series.rejected()[Traffic.SECONDS - 1]).isEqualTo(threads / 2 * (long) each);
  }

  private void count(String policy, int times, boolean rejected) {
    for (int i = 0; i < times; i++) {
      traffic.count(policy, rejected);
    }
  }
}
