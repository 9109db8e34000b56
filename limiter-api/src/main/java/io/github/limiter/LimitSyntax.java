package io.github.limiter;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The textual forms of limits and durations. */
final class LimitSyntax {

  private static final String EXPECTED_LIMIT =
      "expected <permits>/<period> [burst=<n>] [initial=<n>] such as '10/s', '100/1m', '5/PT10S'"
          + " or '10/s burst=20', or a calendar quota <permits>/day, /week, /month or /year";
  private static final String EXPECTED_DURATION =
      "expected a duration such as 's', '10s', '500ms', '1m', '1h', '1d' or ISO-8601 'PT10S'";

  private static final Pattern LIMIT =
      Pattern.compile("(\\d+)\\s*/\\s*(\\S+)((?:\\s+\\w+\\s*=\\s*\\d+)*)");
  private static final Pattern OPTION = Pattern.compile("(\\w+)\\s*=\\s*(\\d+)");
  private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)?(ns|us|ms|s|m|h|d)");

  private LimitSyntax() {}

  static Limit parseLimit(String text) {
    String trimmed = text == null ? "" : text.trim();
    Matcher matcher = LIMIT.matcher(trimmed);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(EXPECTED_LIMIT + ", was '" + trimmed + "'");
    }
    long permits = parseCount(matcher.group(1), trimmed);
    ChronoUnit calendar = calendarUnit(matcher.group(2));
    if (calendar != null) {
      if (!matcher.group(3).isBlank()) {
        throw new IllegalArgumentException(
            "invalid limit '" + trimmed + "': a calendar quota takes no burst and no initial");
      }
      return Limit.quota(permits, calendar);
    }
    Duration period;
    try {
      period = parseDuration(matcher.group(2));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          EXPECTED_LIMIT + ", was '" + trimmed + "': " + e.getMessage(), e);
    }
    long burst = permits;
    OptionalLong initial = OptionalLong.empty();
    Matcher option = OPTION.matcher(matcher.group(3));
    Set<String> seen = new HashSet<>();
    while (option.find()) {
      long value = parseCount(option.group(2), trimmed);
      String name = option.group(1).toLowerCase(Locale.ROOT);
      if (!seen.add(name)) {
        throw new IllegalArgumentException(
            EXPECTED_LIMIT + ", was '" + trimmed + "': option '" + name + "' given twice");
      }
      switch (name) {
        case "burst" -> burst = value;
        case "initial" -> initial = OptionalLong.of(value);
        default ->
            throw new IllegalArgumentException(
                EXPECTED_LIMIT
                    + ", was '"
                    + trimmed
                    + "': unknown option '"
                    + option.group(1)
                    + "'");
      }
    }
    try {
      return new Limit(permits, period, burst, initial);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid limit '" + trimmed + "': " + e.getMessage(), e);
    }
  }

  /**
   * The calendar unit named by {@code day}, {@code week}, {@code month} or {@code year}; or null.
   */
  private static ChronoUnit calendarUnit(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "day" -> ChronoUnit.DAYS;
      case "week" -> ChronoUnit.WEEKS;
      case "month" -> ChronoUnit.MONTHS;
      case "year" -> ChronoUnit.YEARS;
      default -> null;
    };
  }

  static String format(ChronoUnit calendar) {
    return switch (calendar) {
      case DAYS -> "day";
      case WEEKS -> "week";
      case MONTHS -> "month";
      default -> "year";
    };
  }

  /** Parses {@code s}, {@code 10s}, {@code 500ms}, {@code 1m}, ... or an ISO-8601 duration. */
  static Duration parseDuration(String text) {
    String trimmed = text == null ? "" : text.trim();
    Matcher simple = SIMPLE_DURATION.matcher(trimmed.toLowerCase(Locale.ROOT));
    if (simple.matches()) {
      long amount = simple.group(1) == null ? 1 : parseCount(simple.group(1), trimmed);
      Duration duration;
      try {
        duration =
            switch (simple.group(2)) {
              case "ns" -> Duration.ofNanos(amount);
              case "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1_000L));
              case "ms" -> Duration.ofMillis(amount);
              case "s" -> Duration.ofSeconds(amount);
              case "m" -> Duration.ofMinutes(amount);
              case "h" -> Duration.ofHours(amount);
              default -> Duration.ofDays(amount);
            };
      } catch (ArithmeticException e) {
        // e.g. 999999999999999999d: say so with the text, not as a bare "long overflow"
        throw new IllegalArgumentException(
            EXPECTED_DURATION + ", was '" + trimmed + "': too large", e);
      }
      return requirePositive(duration, trimmed);
    }
    if (trimmed.regionMatches(true, 0, "P", 0, 1)) {
      try {
        return requirePositive(Duration.parse(trimmed.toUpperCase(Locale.ROOT)), trimmed);
      } catch (DateTimeParseException e) {
        // fall through to the common message
      }
    }
    throw new IllegalArgumentException(EXPECTED_DURATION + ", was '" + trimmed + "'");
  }

  static String format(Duration period) {
    long nanos = period.toNanos();
    if (nanos % 86_400_000_000_000L == 0) return unit(nanos / 86_400_000_000_000L, "d");
    if (nanos % 3_600_000_000_000L == 0) return unit(nanos / 3_600_000_000_000L, "h");
    if (nanos % 60_000_000_000L == 0) return unit(nanos / 60_000_000_000L, "m");
    if (nanos % 1_000_000_000L == 0) return unit(nanos / 1_000_000_000L, "s");
    if (nanos % 1_000_000L == 0) return nanos / 1_000_000L + "ms";
    if (nanos % 1_000L == 0) return nanos / 1_000L + "us";
    return nanos + "ns";
  }

  private static String unit(long amount, String unit) {
    return amount == 1 ? unit : amount + unit;
  }

  private static Duration requirePositive(Duration duration, String text) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("expected a positive duration, was '" + text + "'");
    }
    return duration;
  }

  private static long parseCount(String digits, String text) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("number too large in '" + text + "'", e);
    }
  }
}
