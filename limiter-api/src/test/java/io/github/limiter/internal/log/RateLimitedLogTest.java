package io.github.limiter.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class RateLimitedLogTest {

  private final CapturedLog captured = new CapturedLog();
  private final List<LogRecord> records = captured.records;
  private final Logger logger = captured.logger;

  @Test
  void writesTheFirstLineAndCountsTheOthersWithinTheInterval() {
    RateLimitedLog log = new RateLimitedLog(logger, RateLimitedLogTest.class, Duration.ofHours(1));
    assertThat(log.log(Level.WARNING, "test", "first")).isTrue();
    assertThat(log.log(Level.WARNING, "test", "second")).isFalse();
    assertThat(records).extracting(LogRecord::getMessage).containsExactly("first");
    assertThat(records.get(0).getSourceClassName()).isEqualTo(RateLimitedLogTest.class.getName());
  }

  @Test
  void theNextLineWrittenSaysHowManyWereLeftOut() {
    ManualClock clock = ManualClock.nearMaxValue();
    RateLimitedLog log =
        new RateLimitedLog(logger, RateLimitedLogTest.class, Duration.ofMillis(300), clock);
    assertThat(log.log(Level.INFO, "test", "one")).isTrue();
    clock.advance(Duration.ofMillis(299));
    assertThat(log.log(Level.INFO, "test", "two")).isFalse();
    clock.advance(Duration.ofMillis(1));
    assertThat(log.log(Level.INFO, "test", "three")).isTrue();
    assertThat(records)
        .extracting(LogRecord::getMessage)
        .containsExactly("one", "three (and 1 more like it since the last such message)");
  }

  @Test
  void writesNothingBelowTheLoggersLevel() {
    logger.setLevel(Level.WARNING);
    RateLimitedLog log = new RateLimitedLog(logger, RateLimitedLogTest.class, Duration.ofNanos(1));
    assertThat(log.log(Level.FINE, "test", "fine")).isFalse();
    assertThat(records).isEmpty();
  }
}
