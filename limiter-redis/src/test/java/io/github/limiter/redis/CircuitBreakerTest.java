package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.ManualClock;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The breaker's timing, driven by a manual clock: no Redis, no waiting. */
class CircuitBreakerTest {

  private static final long OPEN = Duration.ofMillis(300).toNanos();
  private static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

  private final ManualClock clock = ManualClock.nearMaxValue();
  private final CircuitBreaker breaker =
      new CircuitBreaker("127.0.0.1:1", 3, OPEN, LOG_INTERVAL, clock);
  private final StoreLog log = new StoreLog();

  @AfterEach
  void stopListening() {
    log.close();
  }

  private void fail(int times) {
    for (int i = 0; i < times; i++) {
      breaker.onFailure(new IOException("refused"));
    }
  }

  private List<String> messages() {
    return log.messages();
  }

  @Test
  void opensAfterTheThresholdAndLetsOneProbeThroughOnceTheOpenDurationHasPassed() {
    // Given two failures: still closed
    fail(2);
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    // When the third fails, it opens and refuses callers
    fail(1);
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(breaker.tryAcquire()).isFalse();
    assertThat(breaker.retryAfterNanos()).isEqualTo(OPEN);
    // Then just before the open duration it still refuses, and says how long is left
    clock.advance(OPEN - 1_000_000);
    assertThat(breaker.tryAcquire()).isFalse();
    assertThat(breaker.retryAfterNanos()).isEqualTo(1_000_000);
    // And once it has passed (across the clock's overflow) one probe goes through, only one
    clock.advance(1_000_000);
    assertThat(breaker.tryAcquire()).isTrue();
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    assertThat(breaker.tryAcquire()).isFalse();
    // And a failed probe opens it for another open duration
    fail(1);
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN);
    clock.advance(OPEN - 1);
    assertThat(breaker.tryAcquire()).isFalse();
    clock.advance(1);
    assertThat(breaker.tryAcquire()).isTrue();
    // And a successful one closes it, saying how long it was open
    breaker.onSuccess();
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(messages().get(messages().size() - 1))
        .contains("closed")
        .contains("(open for 600 ms)");
  }

  @Test
  void whileOpenItSummarisesTheFallbacksOncePerLogInterval() {
    fail(3);
    assertThat(messages()).singleElement().asString().contains("opened after 3 consecutive");
    // Fallbacks within the interval are counted, not logged
    breaker.onFallback();
    clock.advance(LOG_INTERVAL.minusNanos(1));
    breaker.onFallback();
    assertThat(messages()).hasSize(1);
    // Then the first one after it logs how many fell back
    clock.advance(1);
    breaker.onFallback();
    assertThat(messages()).hasSize(2);
    assertThat(messages().get(1)).contains("still open: 3 decisions fell back");
    // And the next summary is an interval later
    clock.advance(LOG_INTERVAL.minusNanos(1));
    breaker.onFallback();
    assertThat(messages()).hasSize(2);
  }

  @Test
  void anOpeningWithinTheLogIntervalOfTheLastIsNotLoggedNorIsItsClosing() {
    fail(3);
    clock.advance(OPEN);
    assertThat(breaker.tryAcquire()).isTrue();
    breaker.onSuccess();
    assertThat(messages()).hasSize(2);
    // When it opens again within the log interval
    fail(3);
    assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN);
    clock.advance(OPEN);
    assertThat(breaker.tryAcquire()).isTrue();
    breaker.onSuccess();
    // Then neither the opening nor the closing is logged
    assertThat(messages()).hasSize(2);
  }
}
