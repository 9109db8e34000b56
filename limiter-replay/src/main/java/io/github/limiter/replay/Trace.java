package io.github.limiter.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A recorded trace: requests in time order, each with a time in nanoseconds and an optional key. */
record Trace(List<Request> requests) {

  /**
   * One request.
   *
   * @param text the timestamp as written, echoed in the output
   * @param nanos the timestamp in nanoseconds
   * @param key the client key, or "" when the trace has none
   */
  record Request(String text, long nanos, String key) {}

  /** The formats a trace can be in. */
  enum Format {
    /** One timestamp in seconds (decimal) a line, optionally followed by a key. */
    SECONDS,
    /** Common or Combined Log Format: keyed by client address, one-second resolution. */
    CLF
  }

  private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
  private static final Pattern CLF = Pattern.compile("(\\S+) \\S+ \\S+ \\[([^\\]]+)] .*");
  private static final DateTimeFormatter CLF_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

  static Trace read(BufferedReader reader, Format format) throws IOException {
    List<Request> requests = new ArrayList<>();
    long last = Long.MIN_VALUE;
    String lastText = null;
    int number = 0;
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      number++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Request request = format == Format.CLF ? clf(line, number) : seconds(line, number);
      if (lastText != null && request.nanos() < last) {
        throw new ReplayException(
            "line " + number + ": timestamp " + request.text() + " goes back before " + lastText);
      }
      last = request.nanos();
      lastText = request.text();
      requests.add(request);
    }
    return new Trace(List.copyOf(requests));
  }

  private static Request seconds(String line, int number) {
    String[] fields = line.trim().split("\\s+");
    if (fields.length > 2) {
      throw new ReplayException(
          "line " + number + ": expected '<seconds> [key]', was '" + line.trim() + "'");
    }
    return new Request(fields[0], toNanos(fields[0], number), fields.length == 2 ? fields[1] : "");
  }

  /** Seconds as written, to the nearest nanosecond: exact decimal arithmetic, no binary rounding. */
  static long toNanos(String seconds, int number) {
    try {
      BigDecimal value = new BigDecimal(seconds);
      if (value.signum() < 0) {
        throw new ReplayException("line " + number + ": timestamp must not be negative, was '" + seconds + "'");
      }
      return value.multiply(NANOS_PER_SECOND).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw new ReplayException(
          "line " + number + ": expected a timestamp in seconds such as 5.02, was '" + seconds + "'");
    }
  }

  private static Request clf(String line, int number) {
    Matcher matcher = CLF.matcher(line);
    if (!matcher.matches()) {
      throw new ReplayException(
          "line " + number + ": expected Common Log Format 'host ident user [dd/MMM/yyyy:HH:mm:ss Z] ...'");
    }
    try {
      OffsetDateTime time = OffsetDateTime.parse(matcher.group(2), CLF_TIME);
      long epochSecond = time.toEpochSecond();
      return new Request(Long.toString(epochSecond), Math.multiplyExact(epochSecond, 1_000_000_000L), matcher.group(1));
    } catch (DateTimeParseException | ArithmeticException e) {
      throw new ReplayException("line " + number + ": bad time '" + matcher.group(2) + "'");
    }
  }
}
