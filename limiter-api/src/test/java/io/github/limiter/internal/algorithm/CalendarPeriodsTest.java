package io.github.limiter.internal.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The periods of calendar quotas, to the millisecond, around the calendar's irregular edges. */
class CalendarPeriodsTest {

  @ParameterizedTest(name = "{0} {1} {2} anchor {3}: [{4}, {5})")
  @CsvSource({
    // anchor 31 in a February of 28 days: the period starts on its last day
    "2023-02-27T12:00:00Z, MONTHS, UTC, 31, 2023-01-31T00:00:00Z, 2023-02-28T00:00:00Z",
    "2023-02-28T00:00:00Z, MONTHS, UTC, 31, 2023-02-28T00:00:00Z, 2023-03-31T00:00:00Z",
    // ... and of 29 days, in a leap year
    "2024-02-28T23:59:59.999Z, MONTHS, UTC, 31, 2024-01-31T00:00:00Z, 2024-02-29T00:00:00Z",
    "2024-02-29T00:00:00Z, MONTHS, UTC, 31, 2024-02-29T00:00:00Z, 2024-03-31T00:00:00Z",
    // anchor 30 in April, and in February
    "2024-04-29T23:59:59.999Z, MONTHS, UTC, 30, 2024-03-30T00:00:00Z, 2024-04-30T00:00:00Z",
    "2024-04-30T00:00:00Z, MONTHS, UTC, 30, 2024-04-30T00:00:00Z, 2024-05-30T00:00:00Z",
    "2024-02-15T00:00:00Z, MONTHS, UTC, 30, 2024-01-30T00:00:00Z, 2024-02-29T00:00:00Z",
    // anchor 1, in a zone: the month starts at local midnight
    "2024-03-31T22:30:00Z, MONTHS, Europe/Berlin, 1, 2024-03-31T22:00:00Z, 2024-04-30T22:00:00Z",
    // daylight saving: 23-hour and 25-hour days
    "2024-03-31T12:00:00Z, DAYS, Europe/Berlin, 1, 2024-03-30T23:00:00Z, 2024-03-31T22:00:00Z",
    "2024-10-27T12:00:00Z, DAYS, Europe/Berlin, 1, 2024-10-26T22:00:00Z, 2024-10-27T23:00:00Z",
    "2024-03-10T12:00:00Z, DAYS, America/New_York, 1, 2024-03-10T05:00:00Z, 2024-03-11T04:00:00Z",
    "2024-11-03T12:00:00Z, DAYS, America/New_York, 1, 2024-11-03T04:00:00Z, 2024-11-04T05:00:00Z",
    // ISO weeks start on Monday, across the year's end
    "2024-12-31T10:00:00Z, WEEKS, UTC, 1, 2024-12-30T00:00:00Z, 2025-01-06T00:00:00Z",
    "2025-01-05T23:59:59.999Z, WEEKS, UTC, 1, 2024-12-30T00:00:00Z, 2025-01-06T00:00:00Z",
    // the year's end, in UTC and ahead of it; a leap year has 366 days
    "2024-12-31T23:59:59.999Z, YEARS, UTC, 1, 2024-01-01T00:00:00Z, 2025-01-01T00:00:00Z",
    "2024-12-31T15:00:00Z, YEARS, Asia/Tokyo, 1, 2024-12-31T15:00:00Z, 2025-12-31T15:00:00Z",
    "2025-01-01T00:00:00Z, DAYS, UTC, 1, 2025-01-01T00:00:00Z, 2025-01-02T00:00:00Z",
  })
  void thePeriodAroundAnInstant(
      String at, ChronoUnit unit, String zone, int anchor, String start, String end) {
    // When
    long[] period = CalendarPeriods.period(millis(at), unit, ZoneId.of(zone), anchor);
    // Then
    assertThat(Instant.ofEpochMilli(period[0])).isEqualTo(Instant.parse(start));
    assertThat(Instant.ofEpochMilli(period[1])).isEqualTo(Instant.parse(end));
  }

  @ParameterizedTest(name = "{0}: {1} hours")
  @CsvSource({
    "2024-03-31T12:00:00Z, Europe/Berlin, 23",
    "2024-10-27T12:00:00Z, Europe/Berlin, 25",
    "2024-03-10T12:00:00Z, America/New_York, 23",
    "2024-11-03T12:00:00Z, America/New_York, 25",
    "2024-06-01T12:00:00Z, America/New_York, 24",
  })
  void aDayAtADaylightSavingChangeIsTwentyThreeOrTwentyFiveHours(
      String at, String zone, int hours) {
    long[] day = CalendarPeriods.period(millis(at), ChronoUnit.DAYS, ZoneId.of(zone), 1);
    assertThat(Duration.ofMillis(day[1] - day[0])).isEqualTo(Duration.ofHours(hours));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"2024, 366", "2023, 365", "2000, 366", "2100, 365"})
  void aLeapYearHas366Days(int year, int days) {
    long at = Instant.parse(year + "-07-01T00:00:00Z").toEpochMilli();
    long[] period = CalendarPeriods.period(at, ChronoUnit.YEARS, ZoneOffset.UTC, 1);
    assertThat(Duration.ofMillis(period[1] - period[0])).isEqualTo(Duration.ofDays(days));
  }

  @ParameterizedTest(name = "anchor {0}")
  @CsvSource({"1", "15", "28", "29", "30", "31"})
  void consecutiveMonthsTileTheTimeline(int anchor) {
    // Given the periods of two years of months, walked end to start
    ZoneId zone = ZoneId.of("Europe/Berlin");
    long at = Instant.parse("2023-01-01T00:00:00Z").toEpochMilli();
    long[] period = CalendarPeriods.period(at, ChronoUnit.MONTHS, zone, anchor);
    for (int i = 0; i < 24; i++) {
      // Then each period holds its start and its last millisecond, and the next starts at its end
      assertThat(CalendarPeriods.period(period[0], ChronoUnit.MONTHS, zone, anchor))
          .containsExactly(period);
      assertThat(CalendarPeriods.period(period[1] - 1, ChronoUnit.MONTHS, zone, anchor))
          .containsExactly(period);
      long[] next = CalendarPeriods.period(period[1], ChronoUnit.MONTHS, zone, anchor);
      assertThat(next[0]).isEqualTo(period[1]);
      assertThat(Duration.ofMillis(next[1] - next[0]))
          .isBetween(Duration.ofDays(27), Duration.ofDays(32));
      period = next;
    }
  }

  private static long millis(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }
}
