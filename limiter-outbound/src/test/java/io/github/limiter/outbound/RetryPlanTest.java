package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.outbound.OutboundConfig.Retry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryPlanTest {

  private static final long MS = 1_000_000L;
  private static final Retry RETRY =
      new Retry(6, Duration.ofSeconds(60), Duration.ofMillis(100), Duration.ofSeconds(1));

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 42})
  void fullJitterIsUniformUpToTheDoublingCeilingAndTheSameForTheSameSeed(long seed) {
    RetryPlan plan = new RetryPlan(RETRY, new Random(seed));
    RetryPlan again = new RetryPlan(RETRY, new Random(seed));
    long[] ceilings = {100 * MS, 200 * MS, 400 * MS, 800 * MS, 1000 * MS, 1000 * MS};

    for (int sent = 1; sent <= 6; sent++) {
      List<Long> waits = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        waits.add(plan.jitter(sent));
      }
      long ceiling = ceilings[sent - 1];
      assertThat(waits).allSatisfy(w -> assertThat(w).isBetween(0L, ceiling));
      // Uniform over [0, ceiling]: the mean is near half of it, and both halves are used.
      double mean = waits.stream().mapToLong(Long::longValue).average().orElseThrow();
      assertThat(mean).isBetween(ceiling * 0.45, ceiling * 0.55);
      assertThat(waits).anySatisfy(w -> assertThat(w).isLessThan(ceiling / 10));
      assertThat(waits).anySatisfy(w -> assertThat(w).isGreaterThan(ceiling / 10 * 9));
    }
    assertThat(again.jitter(1)).isEqualTo(new RetryPlan(RETRY, new Random(seed)).jitter(1));
  }

  @Test
  void theUpstreamsWaitIsTakenAsItIs() {
    RetryPlan plan = new RetryPlan(RETRY, new Random(1));

    assertThat(plan.next(1, 0, 2_000 * MS)).isEqualTo(2_000 * MS);
  }

  @Test
  void itStopsAtTheAttempts() {
    RetryPlan plan = new RetryPlan(RETRY, new Random(1));

    assertThat(plan.next(5, 0, 10 * MS)).isEqualTo(10 * MS);
    assertThat(plan.next(6, 0, 10 * MS)).isEqualTo(RetryPlan.STOP);
  }

  @Test
  void itStopsWhenTheRetryWouldStartAfterTheMaxTime() {
    RetryPlan plan = new RetryPlan(RETRY, new Random(1));

    assertThat(plan.next(1, 59_000 * MS, 1_000 * MS)).isEqualTo(1_000 * MS);
    assertThat(plan.next(1, 59_000 * MS, 1_001 * MS)).isEqualTo(RetryPlan.STOP);
  }

  @Test
  void oneAttemptIsNoRetry() {
    RetryPlan plan = new RetryPlan(Retry.NONE, new Random(1));

    assertThat(plan.enabled()).isFalse();
    assertThat(plan.next(1, 0, 0)).isEqualTo(RetryPlan.STOP);
  }

  @Test
  void onlyIdempotentMethodsAreRetried() {
    assertThat(List.of("GET", "head", "PUT", "DELETE", "OPTIONS", "TRACE"))
        .allSatisfy(m -> assertThat(RetryPlan.idempotent(m)).isTrue());
    assertThat(List.of("POST", "PATCH", "CONNECT"))
        .allSatisfy(m -> assertThat(RetryPlan.idempotent(m)).isFalse());
  }
}
