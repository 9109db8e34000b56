package io.github.limiter.outbound;

import io.github.limiter.internal.log.LogText;
import io.github.limiter.internal.log.RateLimitedLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an upstream's response says about calling it again: how long every call to it should wait.
 *
 * <ul>
 *   <li>{@code Retry-After} on a 429 or 503, in seconds or as an HTTP-date in any of its three
 *       forms;
 *   <li>the IETF {@code RateLimit} field ({@code "default";r=0;t=30}) with {@code RateLimit-Policy}
 *       ({@code "default";q=100;w=60}) for a missing reset, its earlier dictionary form ({@code
 *       limit=100, remaining=0, reset=30}) and the separate {@code RateLimit-Remaining} and {@code
 *       -Reset} fields;
 *   <li>the common {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset} (seconds, or a Unix
 *       time when it is one).
 * </ul>
 *
 * When nothing remains, calls wait until the reset. A malformed value, a negative one, or one more
 * than a day ahead is ignored, and logged at most once a minute; any wait is cut to {@code
 * max-block}. A bad header never fails the call.
 */
final class UpstreamSignals {

  /** A wait further ahead than this is not believed. */
  static final long ABSURD_NANOS = Duration.ofDays(1).toNanos();

  /** From here on a reset reads as a Unix time, not seconds: 2001-09-09, or 31 years of seconds. */
  private static final long UNIX_TIME_FROM = 1_000_000_000L;

  private static final Pattern SECONDS = Pattern.compile("\\d{1,12}");

  /** RFC 9110's preferred HTTP-date, as {@code RFC_1123_DATE_TIME} reads it (GMT, or an offset). */
  private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.RFC_1123_DATE_TIME;

  /** ANSI C's asctime(): a day of the month under 10 is padded with a space. */
  private static final DateTimeFormatter ASCTIME =
      DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss uuuu", Locale.US).withZone(ZoneOffset.UTC);

  /** A parameter of a structured field item or a dictionary member: {@code r=0}, {@code w=60}. */
  private static final Pattern PARAMETER =
      Pattern.compile("(?:^|[;,])\\s*([a-z][a-z0-9_-]*)\\s*=\\s*(\"[^\"]*\"|[^;,\\s]+)");

  private static final RateLimitedLog LOG =
      new RateLimitedLog(
          java.util.logging.Logger.getLogger(UpstreamSignals.class.getName()),
          UpstreamSignals.class,
          Duration.ofMinutes(1));

  private final String policy;
  private final long maxBlockNanos;
  private final Clock wall;
  private final RateLimitedLog log;

  UpstreamSignals(String policy, Duration maxBlock, Clock wall) {
    this(policy, maxBlock, wall, LOG);
  }

  UpstreamSignals(String policy, Duration maxBlock, Clock wall, RateLimitedLog log) {
    this.policy = policy;
    this.maxBlockNanos = maxBlock.toNanos();
    this.wall = wall;
    this.log = log;
  }

  /** Whether {@code status} is an upstream's refusal: 429 Too Many Requests, 503 Unavailable. */
  static boolean refused(int status) {
    return status == 429 || status == 503;
  }

  /**
   * How long calls to the upstream should wait after this response, in nanoseconds: 0 for not at
   * all, else at most {@code max-block}.
   */
  long blockNanos(int status, Function<String, String> header) {
    long wait = 0;
    if (refused(status)) {
      wait = Math.max(wait, retryAfter(header.apply("Retry-After")));
    }
    wait = Math.max(wait, rateLimit(header));
    if (wait > maxBlockNanos) {
      warn("asked for a pause of " + Duration.ofNanos(wait).toSeconds() + " s", "cut to max-block");
      wait = maxBlockNanos;
    }
    return wait;
  }

  /** {@code Retry-After}: delay-seconds or an HTTP-date; 0 if absent or not believed. */
  long retryAfter(String value) {
    if (value == null || value.isBlank()) {
      return 0;
    }
    String text = value.trim();
    if (SECONDS.matcher(text).matches()) {
      return believed("Retry-After", text, secondsToNanos(Long.parseLong(text)));
    }
    Instant now = wall.instant();
    Instant at = httpDate(text, now);
    if (at == null) {
      return malformed("Retry-After", text);
    }
    if (!at.isAfter(now)) {
      return 0; // a past date: go on
    }
    // A date centuries ahead must not overflow the nanoseconds: saturated, then not believed
    long nanos =
        at.isAfter(now.plusNanos(ABSURD_NANOS))
            ? Long.MAX_VALUE
            : Duration.between(now, at).toNanos();
    return believed("Retry-After", text, nanos);
  }

  /**
   * An HTTP-date in any of the three forms RFC 9110 (5.6.7) has a recipient accept: IMF-fixdate
   * ({@code Sun, 06 Nov 1994 08:49:37 GMT}), and the obsolete RFC 850 ({@code Sunday, 06-Nov-94
   * 08:49:37 GMT}) and asctime ({@code Sun Nov 6 08:49:37 1994}) forms; null if it is none.
   */
  static Instant httpDate(String text, Instant now) {
    for (DateTimeFormatter form : List.of(IMF_FIXDATE, ASCTIME, rfc850(now))) {
      try {
        return ZonedDateTime.parse(text, form).toInstant();
      } catch (DateTimeParseException e) {
        // the next form
      }
    }
    return null;
  }

  /**
   * RFC 850's two-digit year: RFC 9110 reads one that would be more than 50 years ahead as the most
   * recent past year with those digits.
   */
  private static DateTimeFormatter rfc850(Instant now) {
    int year = now.atZone(ZoneOffset.UTC).getYear();
    return new DateTimeFormatterBuilder()
        .appendPattern("EEEE, dd-MMM-")
        .appendValueReduced(ChronoField.YEAR, 2, 2, year - 49)
        .appendPattern(" HH:mm:ss 'GMT'")
        .toFormatter(Locale.US)
        .withZone(ZoneOffset.UTC);
  }

  /** Seconds in nanoseconds, saturated: twelve digits of seconds overflow a long of nanoseconds. */
  private static long secondsToNanos(long seconds) {
    return seconds > Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : seconds * 1_000_000_000L;
  }

  /** The wait the rate-limit fields ask for: until the reset when nothing remains, else 0. */
  private long rateLimit(Function<String, String> header) {
    String ietf = header.apply("RateLimit");
    if (ietf != null && !ietf.isBlank()) {
      return ietf(ietf, header.apply("RateLimit-Policy"));
    }
    long wait = fields("RateLimit-", header);
    return wait > 0 ? wait : fields("X-RateLimit-", header);
  }

  /**
   * {@code RateLimit}: structured items {@code "name";r=0;t=30}, or the earlier dictionary {@code
   * limit=100, remaining=0, reset=30}. The longest wait of the items with nothing remaining.
   */
  private long ietf(String value, String policies) {
    long wait = 0;
    for (String item : value.split(",(?=\\s*\")")) {
      String remaining = parameter(item, "r", "remaining");
      if (remaining == null) {
        continue;
      }
      if (!SECONDS.matcher(remaining).matches()) {
        malformed("RateLimit", value.trim());
        continue;
      }
      if (Long.parseLong(remaining) > 0) {
        continue;
      }
      String reset = parameter(item, "t", "reset");
      if (reset == null) {
        reset = window(item, policies); // the policy's window: the longest a reset can be
      }
      wait = Math.max(wait, reset == null ? 0 : seconds("RateLimit", reset));
    }
    return wait;
  }

  /** The window ({@code w}) of the {@code RateLimit-Policy} item the {@code item} names. */
  private static String window(String item, String policies) {
    if (policies == null) {
      return null;
    }
    int quote = item.indexOf('"');
    int end = quote < 0 ? -1 : item.indexOf('"', quote + 1);
    String name = end < 0 ? null : item.substring(quote, end + 1);
    for (String policy : policies.split(",(?=\\s*\")")) {
      if (name == null || policy.trim().startsWith(name)) {
        return parameter(policy, "w", "w");
      }
    }
    return null;
  }

  /** {@code <prefix>Remaining} and {@code <prefix>Reset}. */
  private long fields(String prefix, Function<String, String> header) {
    String remaining = header.apply(prefix + "Remaining");
    if (remaining == null || remaining.isBlank()) {
      return 0;
    }
    String text = remaining.trim();
    if (!SECONDS.matcher(text).matches()) {
      return malformed(prefix + "Remaining", text);
    }
    String reset = header.apply(prefix + "Reset");
    if (Long.parseLong(text) > 0 || reset == null || reset.isBlank()) {
      return 0;
    }
    return seconds(prefix + "Reset", reset.trim());
  }

  /** Seconds to wait, or a Unix time in seconds to wait until. */
  private long seconds(String field, String text) {
    String value =
        text.startsWith("\"") && text.endsWith("\"") && text.length() > 1
            ? text.substring(1, text.length() - 1)
            : text;
    if (!SECONDS.matcher(value).matches()) {
      return malformed(field, text);
    }
    long seconds = Long.parseLong(value);
    if (seconds >= UNIX_TIME_FROM) {
      long millis = seconds * 1000 - wall.millis();
      return millis <= 0 ? 0 : believed(field, text, millis * 1_000_000);
    }
    return believed(field, text, secondsToNanos(seconds));
  }

  private static String parameter(String item, String name, String longName) {
    Matcher m = PARAMETER.matcher(item.toLowerCase(Locale.ROOT));
    while (m.find()) {
      if (m.group(1).equals(name) || m.group(1).equals(longName)) {
        return m.group(2);
      }
    }
    return null;
  }

  private long believed(String field, String text, long nanos) {
    if (nanos > ABSURD_NANOS) {
      warn(field + ": " + text, "ignored: more than a day ahead");
      return 0;
    }
    return nanos;
  }

  private long malformed(String field, String text) {
    warn(field + ": " + shown(text), "ignored: malformed or negative");
    return 0;
  }

  private void warn(String what, String done) {
    log.log(
        Level.WARNING,
        "blockNanos",
        "Outbound policy " + LogText.quote(policy) + ": the upstream's " + what + "; " + done);
  }

  /** At most 64 characters of an upstream's text, escaped for the log. */
  private static String shown(String text) {
    return LogText.escape(text.length() > 64 ? text.substring(0, 64) + "..." : text);
  }
}
