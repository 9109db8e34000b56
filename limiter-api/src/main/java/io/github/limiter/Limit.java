package io.github.limiter;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One limit: {@code permits} per {@code period}, plus a burst for the bucket algorithms.
 *
 * <p>For the window algorithms, {@code permits} is N and {@code period} is the window W. For the
 * bucket algorithms, {@code permits/period} is the rate r and {@code burst} the capacity b, which
 * defaults to {@code permits}. {@code initial} is the token bucket's initial tokens (default: full)
 * or the leaky bucket's initial level (default: empty). For {@link Algorithm#CONCURRENCY}, {@code
 * permits} is the most requests in flight and {@code period} the Retry-After hint of a rejection.
 *
 * <p>Textual form, as in configuration: {@code 10/s}, {@code 100/1m}, {@code 1000/h}, {@code
 * 5000/d}, {@code 5/PT10S}, optionally followed by {@code burst=20} and {@code initial=0}, e.g.
 * {@code 10/s burst=20}.
 *
 * <p>A <b>calendar quota</b> ({@code 10000/month}, also {@code /day}, {@code /week}, {@code /year})
 * counts permits per period of the calendar in {@code zone}, whatever the policy's algorithm: days
 * from local midnight (23 or 25 hours at a daylight-saving change), ISO weeks from Monday, months
 * from {@code anchorDay} (on a shorter month's last day when it has no such day), years from
 * January 1st. Its {@code period} is the unit's nominal length, for headers only; a quota has no
 * burst and no initial. Permits charged beyond the quota as debt keep the key out until the period
 * ends, and never into the next period.
 *
 * @param permits permits per period, at least 1
 * @param period the window, or the period of the rate; at least one nanosecond per permit
 * @param burst bucket capacity, at least 1 (for windows, equal to {@code permits})
 * @param initial initial tokens or level, between 0 and {@code burst}; empty for the default
 * @param calendar for a calendar quota: {@code DAYS}, {@code WEEKS}, {@code MONTHS} or {@code
 *     YEARS}; null for a rate or window
 * @param zone the time zone of a quota's periods (UTC by default)
 * @param anchorDay the day of the month a quota's months start on, 1 to 31 (1 by default)
 */
public record Limit(
    long permits,
    Duration period,
    long burst,
    OptionalLong initial,
    ChronoUnit calendar,
    ZoneId zone,
    int anchorDay) {

  /** Keeps bucket arithmetic in nanoseconds clear of overflow, with room for differences. */
  private static final long MAX_SPAN_NANOS = 1L << 61;

  public Limit {
    Objects.requireNonNull(period, "period");
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(zone, "zone");
    require(anchorDay >= 1 && anchorDay <= 31, "anchor day must be 1 to 31, was " + anchorDay);
    if (calendar != null) {
      require(
          calendar == ChronoUnit.DAYS
              || calendar == ChronoUnit.WEEKS
              || calendar == ChronoUnit.MONTHS
              || calendar == ChronoUnit.YEARS,
          "a quota's period is a day, week, month or year, was " + calendar);
      require(
          period.equals(calendar.getDuration()),
          "a " + calendar + " quota's period is " + calendar.getDuration() + ", was " + period);
      require(
          burst == permits && initial.isEmpty(),
          "a calendar quota has no burst and no initial, was burst "
              + burst
              + (initial.isPresent() ? " initial " + initial.getAsLong() : ""));
    }
    require(permits >= 1, "permits must be at least 1, was " + permits);
    require(!period.isNegative() && !period.isZero(), "period must be positive, was " + period);
    require(
        period.compareTo(Duration.ofNanos(MAX_SPAN_NANOS)) <= 0,
        "period must be at most " + Duration.ofNanos(MAX_SPAN_NANOS) + ", was " + period);
    require(
        period.toNanos() >= permits,
        "at most one permit per nanosecond, was " + permits + " per " + period);
    require(burst >= 1, "burst must be at least 1, was " + burst);
    long interval = ceilDiv(period.toNanos(), permits);
    require(
        burst <= MAX_SPAN_NANOS / interval,
        "burst " + burst + " at " + permits + " per " + period + " spans more than 73 years");
    if (initial.isPresent()) {
      long x = initial.getAsLong();
      require(x >= 0 && x <= burst, "initial must be between 0 and burst " + burst + ", was " + x);
    }
  }

  /** A rate or window limit; see {@link Limit}. */
  public Limit(long permits, Duration period, long burst, OptionalLong initial) {
    this(permits, period, burst, initial, null, ZoneOffset.UTC, 1);
  }

  /**
   * A calendar quota: {@code permits} per {@code unit} ({@code DAYS}, {@code WEEKS}, {@code
   * MONTHS}, {@code YEARS}) in UTC, months from the 1st; see {@link #inCalendar}.
   */
  public static Limit quota(long permits, ChronoUnit unit) {
    Objects.requireNonNull(unit, "unit");
    return new Limit(
        permits, unit.getDuration(), permits, OptionalLong.empty(), unit, ZoneOffset.UTC, 1);
  }

  /**
   * This quota's copy whose periods follow {@code zone}, months starting on {@code anchorDay}; this
   * limit itself if it is no quota.
   */
  public Limit inCalendar(ZoneId zone, int anchorDay) {
    return calendar == null
        ? this
        : new Limit(permits, period, burst, initial, calendar, zone, anchorDay);
  }

  /** Whether this is a calendar quota. */
  public boolean isQuota() {
    return calendar != null;
  }

  /**
   * Parses a time zone as in configuration, e.g. {@code Europe/Berlin}, {@code UTC}, {@code
   * +02:00}.
   *
   * @throws IllegalArgumentException naming the text and what was expected
   */
  public static ZoneId parseZone(String text) {
    String trimmed = text == null ? "" : text.trim();
    try {
      return ZoneId.of(trimmed);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          "expected a time zone such as 'UTC', 'Europe/Berlin' or '+02:00', was '" + trimmed + "'",
          e);
    }
  }

  /** N per W, for the window algorithms; also a bucket of rate N/W and capacity N. */
  public static Limit of(long permits, Duration period) {
    return new Limit(permits, period, permits, OptionalLong.empty());
  }

  /** A bucket of rate {@code permits/period} and capacity {@code burst}. */
  public static Limit bucket(long permits, Duration period, long burst) {
    return new Limit(permits, period, burst, OptionalLong.empty());
  }

  /** A copy with the given initial tokens (token bucket) or level (leaky bucket). */
  public Limit withInitial(long initialValue) {
    return new Limit(
        permits, period, burst, OptionalLong.of(initialValue), calendar, zone, anchorDay);
  }

  /** The window W in nanoseconds. */
  public long periodNanos() {
    return period.toNanos();
  }

  /**
   * The emission interval 1/r in nanoseconds, rounded up so that rounding never admits more than
   * configured (the error is below one nanosecond per permit).
   */
  public long intervalNanos() {
    return ceilDiv(period.toNanos(), permits);
  }

  /**
   * Parses one limit, e.g. {@code 10/s burst=20}.
   *
   * @throws IllegalArgumentException naming the text and what was expected
   */
  public static Limit parse(String text) {
    return LimitSyntax.parseLimit(text);
  }

  /**
   * Parses a comma-separated list of limits, e.g. {@code 10/s, 1000/h}.
   *
   * @throws IllegalArgumentException naming the text and what was expected
   */
  public static List<Limit> parseAll(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(
          "expected one or more limits such as '10/s' or '10/s burst=20, 1000/h', was '"
              + (text == null ? "" : text)
              + "'");
    }
    List<Limit> limits = new ArrayList<>();
    // -1 keeps trailing empty parts, so that '10/s,' is as wrong as ',10/s'.
    for (String part : text.split(",", -1)) {
      limits.add(parse(part));
    }
    return List.copyOf(limits);
  }

  /**
   * Parses a duration as used in configuration: {@code 10s}, {@code 500ms}, {@code 1m}, {@code 1h},
   * {@code 1d} or ISO-8601 such as {@code PT10S}.
   *
   * @throws IllegalArgumentException naming the text and what was expected
   */
  public static Duration parseDuration(String text) {
    return LimitSyntax.parseDuration(text);
  }

  @Override
  public String toString() {
    if (calendar != null) {
      return permits + "/" + LimitSyntax.format(calendar);
    }
    StringBuilder text =
        new StringBuilder().append(permits).append('/').append(LimitSyntax.format(period));
    if (burst != permits) {
      text.append(" burst=").append(burst);
    }
    initial.ifPresent(x -> text.append(" initial=").append(x));
    return text.toString();
  }

  static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }
}
