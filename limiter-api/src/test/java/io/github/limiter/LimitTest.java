package io.github.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The textual form of limits and durations, and the bounds of a limit. */
class LimitTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "10/s            | 10   | PT1S",
        "100/1m          | 100  | PT1M",
        "1000/h          | 1000 | PT1H",
        "5000/d          | 5000 | PT24H",
        "5/PT10S         | 5    | PT10S",
        "10/500ms        | 10   | PT0.5S",
        "3/250us         | 3    | PT0.00025S",
        "7/1000ns        | 7    | PT0.000001S",
        "' 10 / s '      | 10   | PT1S",
        "10/S            | 10   | PT1S",
        "2/pt1m          | 2    | PT1M"
      })
  void parsesPermitsPerPeriod(String text, long permits, Duration period) {
    // When
    Limit limit = Limit.parse(text);

    // Then burst defaults to the permits, and there is no initial
    assertThat(limit.permits()).isEqualTo(permits);
    assertThat(limit.period()).isEqualTo(period);
    assertThat(limit.burst()).isEqualTo(permits);
    assertThat(limit.initial()).isEmpty();
    assertThat(limit).isEqualTo(Limit.of(permits, period));
  }

  @Test
  void parsesBurstAndInitial() {
    assertThat(Limit.parse("10/s burst=20")).isEqualTo(Limit.bucket(10, Duration.ofSeconds(1), 20));
    assertThat(Limit.parse("10/s burst=20 initial=0"))
        .isEqualTo(new Limit(10, Duration.ofSeconds(1), 20, OptionalLong.of(0)));
    assertThat(Limit.parse("10/s initial=3").initial()).hasValue(3);
    assertThat(Limit.parse("10/s  BURST = 20").burst()).isEqualTo(20);
  }

  @Test
  void parsesAListOfLimits() {
    assertThat(Limit.parseAll("10/s, 1000/h"))
        .containsExactly(Limit.of(10, Duration.ofSeconds(1)), Limit.of(1000, Duration.ofHours(1)));
    assertThat(Limit.parseAll("10/s burst=20,5000/d")).hasSize(2);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "s        | PT1S",
        "10s      | PT10S",
        "500ms    | PT0.5S",
        "1m       | PT1M",
        "1h       | PT1H",
        "1d       | PT24H",
        "PT10S    | PT10S",
        "pt10s    | PT10S",
        "P1D      | PT24H",
        "' 20s '  | PT20S",
        "1500us   | PT0.0015S",
        "5ns      | PT0.000000005S"
      })
  void parsesDurations(String text, Duration expected) {
    assertThat(Limit.parseDuration(text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "10 per sec",
        "",
        "   ",
        "10",
        "/s",
        "-1/s",
        "10/s burst=",
        "10/s burst=abc",
        "ten/s",
        "10/s;burst=2",
        "1.5/s"
      })
  void aMalformedLimitNamesTheTextAndWhatWasExpected(String text) {
    assertThatThrownBy(() -> Limit.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was '" + text.trim() + "'")
        .hasMessageContaining("expected <permits>/<period>")
        .hasMessageContaining("10/s");
  }

  @Test
  void aBadPeriodNamesTheLimitAndTheDuration() {
    assertThatThrownBy(() -> Limit.parse("10/x"))
        .hasMessageContaining("was '10/x'")
        .hasMessageContaining("expected a duration")
        .hasMessageContaining("was 'x'");
  }

  @Test
  void anUnknownOptionIsNamed() {
    assertThatThrownBy(() -> Limit.parse("10/s foo=1"))
        .hasMessageContaining("was '10/s foo=1'")
        .hasMessageContaining("unknown option 'foo'");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0/s                      | permits must be at least 1, was 0",
        "10/s burst=0             | burst must be at least 1, was 0",
        "10/s initial=11          | initial must be between 0 and burst 10, was 11",
        "2/1ns                    | at most one permit per nanosecond",
        "10/73000d                | period must be at most",
        "1/1d burst=1000000000000 | spans more than 73 years"
      })
  void anImpossibleLimitNamesTheTextAndTheRule(String text, String rule) {
    assertThatThrownBy(() -> Limit.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid limit '" + text + "'")
        .hasMessageContaining(rule);
  }

  @Test
  void aNumberTooLargeNamesTheText() {
    assertThatThrownBy(() -> Limit.parse("99999999999999999999/s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too large")
        .hasMessageContaining("'99999999999999999999/s'");
  }

  // Regression: a period or duration too large for a long (999999999999999999d, 10^17 us) escaped
  // as a bare ArithmeticException "long overflow", naming neither the text nor the config key.
  @ParameterizedTest
  @ValueSource(strings = {"999999999999999999d", "99999999999999999us", "9999999999999999h"})
  void aDurationTooLargeForALongIsABadValueNotAnOverflow(String text) {
    assertThatThrownBy(() -> Limit.parseDuration(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was '" + text + "'")
        .hasMessageContaining("expected a duration");
    assertThatThrownBy(() -> Limit.parse("10/" + text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was '10/" + text + "'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"0s", "0ms", "PT0S", "PT-1S", "1.5s", "10 s", "abc", "", "P", "PTXS", "-5s"})
  void aBadDurationNamesTheTextAndWhatWasExpected(String text) {
    assertThatThrownBy(() -> Limit.parseDuration(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text.trim() + "'")
        .hasMessageContaining("duration");
  }

  @Test
  void anEmptyListNamesWhatWasExpected() {
    for (String text : new String[] {"", "  ", null}) {
      assertThatThrownBy(() -> Limit.parseAll(text))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("expected one or more limits")
          .hasMessageContaining("was '" + (text == null ? "" : text) + "'");
    }
    assertThatThrownBy(() -> Limit.parseAll("10/s,,1/h")).hasMessageContaining("was ''");
  }

  @Test
  void theIntervalRoundsUpSoThatRoundingNeverAdmitsMore() {
    assertThat(Limit.of(10, Duration.ofSeconds(1)).intervalNanos()).isEqualTo(100_000_000L);
    assertThat(Limit.of(3, Duration.ofSeconds(1)).intervalNanos()).isEqualTo(333_333_334L);
    assertThat(Limit.of(7, Duration.ofNanos(7)).intervalNanos()).isEqualTo(1);
    assertThat(Limit.of(10, Duration.ofSeconds(1)).periodNanos()).isEqualTo(1_000_000_000L);
  }

  @Test
  void limitsPrintInTheirTextualForm() {
    assertThat(Limit.of(10, Duration.ofSeconds(1))).hasToString("10/s");
    assertThat(Limit.of(100, Duration.ofMinutes(1))).hasToString("100/m");
    assertThat(Limit.of(5, Duration.ofSeconds(10))).hasToString("5/10s");
    assertThat(Limit.of(5, Duration.ofMillis(1500))).hasToString("5/1500ms");
    assertThat(Limit.bucket(10, Duration.ofSeconds(1), 20).withInitial(0))
        .hasToString("10/s burst=20 initial=0");
    assertThat(
            List.of(Limit.of(1, Duration.ofDays(2)), Limit.of(1, Duration.ofNanos(7))).toString())
        .isEqualTo("[1/2d, 1/7ns]");
  }

  /**
   * Any valid bucket limit: up to 10^6 permits, periods up to 2^50 ns, bursts up to 1000, maybe an
   * initial.
   */
  static Stream<Named<Limit>> limits() {
    return Cases.random(
        9,
        300,
        gen -> {
          long permits = gen.between(1, 1_000_000);
          long period = gen.between(permits, 1L << 50);
          long burst = gen.between(1, 1_000);
          Limit base = Limit.bucket(permits, Duration.ofNanos(period), burst);
          return gen.chance(0.5) ? base : base.withInitial(gen.between(0, burst));
        });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limits")
  void everyLimitParsesBackFromItsTextualForm(Limit limit) {
    assertThat(Limit.parse(limit.toString())).isEqualTo(limit);
  }
}
