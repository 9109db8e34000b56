package io.github.limiter.internal.algorithm;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;

/**
 * The calendar periods of quotas, computed with the zone rules of {@code java.time}: a pure
 * function from an instant to the period around it, exact to the millisecond.
 *
 * <p>Every period starts at the start of a local day (midnight, or the first instant after it when
 * a daylight-saving gap swallows midnight). Days are local days, so 23 or 25 hours long at a
 * daylight-saving change; weeks start on Monday (ISO); months start on {@code anchorDay}, or on the
 * month's last day when it is shorter (anchor 31: February 28th or 29th, April 30th); years start
 * on January 1st.
 */
public final class CalendarPeriods {

  private CalendarPeriods() {}

  /**
   * The period of {@code unit} that holds {@code epochMillis}: {@code {start, end}} in epoch
   * milliseconds, start included, end excluded.
   */
  public static long[] period(long epochMillis, ChronoUnit unit, ZoneId zone, int anchorDay) {
    LocalDate day = Instant.ofEpochMilli(epochMillis).atZone(zone).toLocalDate();
    LocalDate start;
    LocalDate end;
    switch (unit) {
      case DAYS -> {
        start = day;
        end = day.plusDays(1);
      }
      case WEEKS -> {
        start = day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        end = start.plusWeeks(1);
      }
      case MONTHS -> {
        LocalDate thisMonth = monthStart(day.getYear(), day.getMonthValue(), anchorDay);
        if (day.isBefore(thisMonth)) {
          LocalDate before = day.minusMonths(1);
          start = monthStart(before.getYear(), before.getMonthValue(), anchorDay);
          end = thisMonth;
        } else {
          LocalDate after = day.plusMonths(1);
          start = thisMonth;
          end = monthStart(after.getYear(), after.getMonthValue(), anchorDay);
        }
      }
      case YEARS -> {
        start = day.withDayOfYear(1);
        end = start.plusYears(1);
      }
      default -> throw new IllegalArgumentException("not a calendar unit: " + unit);
    }
    return new long[] {millis(start, zone), millis(end, zone)};
  }

  /** The day a month's period starts on: the anchor day, or the month's last day if shorter. */
  private static LocalDate monthStart(int year, int month, int anchorDay) {
    LocalDate first = LocalDate.of(year, month, 1);
    return first.withDayOfMonth(Math.min(anchorDay, first.lengthOfMonth()));
  }

  private static long millis(LocalDate day, ZoneId zone) {
    return day.atStartOfDay(zone).toInstant().toEpochMilli();
  }
}
