package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.log.RateLimitedLog;
import io.github.limiter.tck.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class UpstreamSignalsTest {

  private static final long SECOND = 1_000_000_000L;
  private static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

  private final Logger logger = Logger.getLogger("test.upstream-signals." + System.nanoTime());
  private final List<String> lines = new ArrayList<>();
  private final ManualClock logClock = ManualClock.random(5);
  private UpstreamSignals signals;

  @BeforeEach
  void capture() {
    logger.setUseParentHandlers(false);
    logger.addHandler(
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            lines.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
    signals =
        new UpstreamSignals(
            "partner",
            Duration.ofMinutes(5),
            Clock.fixed(NOW, ZoneOffset.UTC),
            new RateLimitedLog(logger, UpstreamSignals.class, Duration.ofMinutes(1), logClock));
  }

  @AfterEach
  void release() {
    logger.getHandlers()[0].close();
  }

  private long block(int status, String... fields) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (int i = 0; i < fields.length; i += 2) {
      headers.put(fields[i], fields[i + 1]);
    }
    return signals.blockNanos(status, headers::get);
  }

  @Test
  void aRefusalWithRetryAfterInSecondsBlocksForThem() {
    assertThat(block(429, "Retry-After", "2")).isEqualTo(2 * SECOND);
    assertThat(block(503, "Retry-After", " 120 ")).isEqualTo(120 * SECOND);
  }

  @Test
  void aRefusalWithAnHttpDateBlocksUntilThen() {
    assertThat(block(429, "Retry-After", "Fri, 04 Dec 2026 10:00:03 GMT")).isEqualTo(3 * SECOND);
    // A date already past asks for no wait, and is no error
    assertThat(block(429, "Retry-After", "Fri, 04 Dec 2026 09:59:00 GMT")).isZero();
    assertThat(lines).isEmpty();
  }

  @Test
  void theObsoleteHttpDateFormsAreReadToo() {
    // RFC 9110 5.6.7: RFC 850's form and asctime's, as well as IMF-fixdate
    assertThat(block(429, "Retry-After", "Friday, 04-Dec-26 10:00:07 GMT")).isEqualTo(7 * SECOND);
    assertThat(block(503, "Retry-After", "Fri Dec  4 10:00:09 2026")).isEqualTo(9 * SECOND);
    assertThat(block(429, "Retry-After", "Fri Dec 11 09:59:59 2026")).isZero(); // over a day
    assertThat(lines).singleElement().asString().contains("more than a day ahead");
  }

  @Test
  void anRfc850YearMoreThanFiftyYearsAheadIsThePastCentury() {
    Instant now = Instant.parse("2026-12-04T10:00:00Z");
    assertThat(UpstreamSignals.httpDate("Sunday, 06-Nov-94 08:49:37 GMT", now))
        .isEqualTo(Instant.parse("1994-11-06T08:49:37Z"));
    assertThat(UpstreamSignals.httpDate("Friday, 06-Nov-76 08:49:37 GMT", now))
        .isEqualTo(Instant.parse("2076-11-06T08:49:37Z"));
    assertThat(UpstreamSignals.httpDate("Sunday, 06-Nov-77 08:49:37 GMT", now))
        .isEqualTo(Instant.parse("1977-11-06T08:49:37Z"));
    assertThat(UpstreamSignals.httpDate("Sun Nov  6 08:49:37 1994", now))
        .isEqualTo(Instant.parse("1994-11-06T08:49:37Z"));
    // A weekday that does not match its date is no date
    assertThat(UpstreamSignals.httpDate("Monday, 06-Nov-94 08:49:37 GMT", now)).isNull();
    assertThat(UpstreamSignals.httpDate("Sun Nov 6 08:49:37 1994", now)).isNull();
  }

  @Test
  void retryAfterSecondsTooManyForNanosecondsSaturateAndAreIgnoredAsMoreThanADay() {
    // 18446744074 s is 2^64 ns and a little: multiplied in a long it wrapped to 0.29 s
    assertThat(block(429, "Retry-After", "18446744074")).isZero();
    assertThat(block(429, "Retry-After", "999999999999")).isZero();
    assertThat(block(429, "Retry-After", "Fri, 04 Dec 9999 10:00:00 GMT")).isZero();
    assertThat(lines).singleElement().asString().contains("18446744074", "more than a day ahead");
  }

  @Test
  void retryAfterOnAnAnswerThatIsNoRefusalIsNotAPause() {
    assertThat(block(200, "Retry-After", "30")).isZero();
    assertThat(block(301, "Retry-After", "30")).isZero();
  }

  @Test
  void malformedNegativeAndAbsurdValuesAreIgnoredAndLoggedAtMostOnceAMinute() {
    assertThat(block(429, "Retry-After", "soon")).isZero();
    assertThat(block(429, "Retry-After", "-5")).isZero();
    assertThat(block(429, "Retry-After", "1.5")).isZero();
    assertThat(block(429, "Retry-After", "Fri, 04 Dec 2029 10:00:00 GMT")).isZero();
    assertThat(block(429, "Retry-After", "999999999")).isZero();
    assertThat(block(200, "RateLimit", "\"default\";r=-1;t=5")).isZero();
    assertThat(block(200, "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "x")).isZero();

    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).contains("partner", "Retry-After: soon", "ignored");

    logClock.advance(Duration.ofMinutes(1));
    block(429, "Retry-After", "b\u0007ell");
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).contains("Retry-After: b\\u0007ell").contains("6 more");
  }

  @Test
  void aLongPauseIsCutToMaxBlock() {
    assertThat(block(429, "Retry-After", "3600")).isEqualTo(Duration.ofMinutes(5).toNanos());
    assertThat(lines).singleElement().asString().contains("cut to max-block");
  }

  @Test
  void theIetfRateLimitFieldWithNothingRemainingBlocksUntilItsReset() {
    assertThat(block(200, "RateLimit", "\"default\";r=0;t=2")).isEqualTo(2 * SECOND);
    assertThat(block(200, "RateLimit", "\"default\";r=3;t=2")).isZero();
    // Two policies: the one with nothing left decides
    assertThat(block(200, "RateLimit", "\"burst\";r=5;t=1, \"day\";r=0;t=40"))
        .isEqualTo(40 * SECOND);
  }

  @Test
  void withoutAResetTheRateLimitPolicyWindowIsTheWait() {
    assertThat(
            block(
                200,
                "RateLimit",
                "\"day\";r=0",
                "RateLimit-Policy",
                "\"burst\";q=10;w=1, \"day\";q=100;w=60"))
        .isEqualTo(60 * SECOND);
  }

  @Test
  void theEarlierDictionaryFormAndSeparateFieldsAreRead() {
    assertThat(block(200, "RateLimit", "limit=100, remaining=0, reset=7")).isEqualTo(7 * SECOND);
    assertThat(block(200, "RateLimit-Remaining", "0", "RateLimit-Reset", "4"))
        .isEqualTo(4 * SECOND);
    assertThat(block(200, "RateLimit-Remaining", "1", "RateLimit-Reset", "4")).isZero();
  }

  @Test
  void xRateLimitResetIsSecondsOrAUnixTime() {
    assertThat(block(200, "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "9"))
        .isEqualTo(9 * SECOND);
    long unix = NOW.getEpochSecond() + 12;
    assertThat(block(200, "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", Long.toString(unix)))
        .isEqualTo(12 * SECOND);
    assertThat(block(200, "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "" + (unix - 100)))
        .isZero();
  }

  @Test
  void aRefusalTakesTheLongerOfRetryAfterAndTheReset() {
    assertThat(block(429, "Retry-After", "2", "RateLimit", "\"default\";r=0;t=5"))
        .isEqualTo(5 * SECOND);
  }
}
