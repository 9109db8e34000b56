package io.github.limiter.replay;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the lines of a trace are read: the format {@code --format} names, and for JSON lines the
 * fields that hold the time and the key. One is made per trace read: it remembers the last time
 * text it parsed, since consecutive lines of an access log mostly share it.
 */
final class LogFormat {

  /** The format names, each with what it expects of a line (the usage text and docs say so). */
  static final List<String> NAMES =
      List.of(
          "seconds", "clf", "combined", "nginx-msec", "apache-msec", "apache-usec", "iso", "json");

  /**
   * A request read from a line.
   *
   * @param text its time as decimal seconds, echoed by {@code --decisions}
   * @param nanos its time in nanoseconds
   * @param key its key; "" for none
   */
  record Request(String text, long nanos, String key) {}

  /** A line the format cannot read: the message says why, and access logs skip it. */
  static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String why) {
      super(why, null, false, false);
    }
  }

  private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);

  /** The first field is the client, the first [bracketed] field the time. */
  private static final Pattern BRACKETED = Pattern.compile("(\\S+) [^\\[]*\\[([^\\]]+)]");

  private static final DateTimeFormatter CLF_TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("dd/MMM/yyyy:HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .appendPattern(" Z")
          .toFormatter(Locale.ROOT);

  /** ISO-8601 with an offset written +01:00, +0100 or Z. */
  private static final DateTimeFormatter ISO_TIME =
      new DateTimeFormatterBuilder()
          .parseCaseInsensitive()
          .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
          .appendPattern("[XXX][XX]")
          .toFormatter(Locale.ROOT);

  /** The units --time-unit takes for a JSON line's numeric time, in nanoseconds. */
  private static final Map<String, Long> UNITS =
      Map.of("s", 1_000_000_000L, "ms", 1_000_000L, "us", 1_000L, "ns", 1L);

  final String name;
  final String timeField;
  final String keyField;
  final String timeUnit;
  private String lastTimeText;
  private long lastTime;
  private String lastText;

  private LogFormat(String name, String timeField, String keyField, String timeUnit) {
    this.name = name;
    this.timeField = timeField;
    this.keyField = keyField;
    this.timeUnit = timeUnit;
  }

  /**
   * Checks the format and its options: JSON lines need a time field, and only they take fields and
   * a time unit.
   */
  static LogFormat of(String name, String timeField, String keyField, String timeUnit) {
    if (!NAMES.contains(name)) {
      throw new ReplayException(
          "--format: expected one of " + String.join(", ", NAMES) + ", was '" + name + "'");
    }
    for (String field : new String[] {timeField, keyField}) {
      if (field != null && field.isBlank()) {
        throw new ReplayException(
            (field == timeField ? "--time-field" : "--key-field")
                + ": expected the name of a field of the JSON lines, was '"
                + field
                + "'");
      }
    }
    if (name.equals("json")) {
      if (timeField == null) {
        throw new ReplayException(
            "--format json needs --time-field NAME: the field that holds each request's time");
      }
      if (timeUnit != null && !UNITS.containsKey(timeUnit)) {
        throw new ReplayException(
            "--time-unit: expected s, ms, us or ns (the unit of a numeric time), was '"
                + timeUnit
                + "'");
      }
    } else if (timeField != null || keyField != null || timeUnit != null) {
      throw new ReplayException(
          (timeField != null ? "--time-field" : keyField != null ? "--key-field" : "--time-unit")
              + " is for the fields of a JSON line: it needs --format json, not '"
              + name
              + "'");
    }
    return new LogFormat(name, timeField, keyField, timeUnit == null ? "s" : timeUnit);
  }

  /** A new reader of the same format, with nothing remembered. */
  LogFormat fresh() {
    return new LogFormat(name, timeField, keyField, timeUnit);
  }

  /**
   * An access log is read leniently (a line it cannot read is skipped, one out of time order put
   * back); a timestamp trace strictly.
   */
  boolean isAccessLog() {
    return !name.equals("seconds");
  }

  /**
   * Reads one line: a {@link ReplayException} for a bad timestamp trace, else {@link Unreadable}.
   */
  Request read(String line, int number) throws Unreadable {
    return switch (name) {
      case "seconds" -> seconds(line, number);
      case "json" -> json(line);
      default -> bracketed(line);
    };
  }

  private static Request seconds(String line, int number) {
    String[] fields = line.trim().split("\\s+");
    if (fields.length > 2) {
      throw new ReplayException(
          "line " + number + ": expected '<seconds> [key]', was '" + line.trim() + "'");
    }
    return new Request(fields[0], toNanos(fields[0], number), fields.length == 2 ? fields[1] : "");
  }

  private Request bracketed(String line) throws Unreadable {
    Matcher matcher = BRACKETED.matcher(line);
    if (!matcher.lookingAt()) {
      throw new Unreadable(
          name.equals("clf") || name.equals("combined")
              ? "not in Common/Combined Log Format 'host ident user [dd/MMM/yyyy:HH:mm:ss Z] ...'"
              : "not 'client ... [" + expected() + "] ...'");
    }
    String time = matcher.group(2);
    if (!time.equals(lastTimeText)) {
      lastTime = bracketTime(time);
      lastText = text(lastTime);
      lastTimeText = time;
    }
    return new Request(lastText, lastTime, matcher.group(1));
  }

  /** What the [bracketed] time of each format holds, for the messages. */
  private String expected() {
    return switch (name) {
      case "nginx-msec" -> "seconds since the epoch such as 1796032800.125 (nginx $msec)";
      case "apache-msec" -> "milliseconds since the epoch such as 1796032800125 (Apache %{msec}t)";
      case "apache-usec" ->
          "microseconds since the epoch such as 1796032800125000 (Apache %{usec}t)";
      case "iso" -> "an ISO-8601 time with an offset such as 2026-12-01T08:00:00.125Z";
      default -> "dd/MMM/yyyy:HH:mm:ss Z";
    };
  }

  private long bracketTime(String time) throws Unreadable {
    try {
      return switch (name) {
        case "nginx-msec" -> decimal(time, 1_000_000_000L);
        case "apache-msec" -> Math.multiplyExact(epochCount(time), 1_000_000L);
        case "apache-usec" -> Math.multiplyExact(epochCount(time), 1_000L);
        case "iso" -> nanos(OffsetDateTime.parse(time, ISO_TIME));
        default -> nanos(OffsetDateTime.parse(time, CLF_TIME));
      };
    } catch (DateTimeException | ArithmeticException | NumberFormatException e) {
      throw new Unreadable("a time that is not " + expected() + ", such as '" + time + "'");
    }
  }

  private static long epochCount(String text) {
    if (!text.chars().allMatch(Character::isDigit)) {
      throw new NumberFormatException(text);
    }
    return Long.parseLong(text);
  }

  private Request json(String line) throws Unreadable {
    Map<String, String> fields = JsonLine.fields(line);
    String time = fields.get(timeField);
    if (time == null) {
      throw new Unreadable("no '" + timeField + "' field (--time-field)");
    }
    String key = "";
    if (keyField != null) {
      key = fields.get(keyField);
      if (key == null) {
        throw new Unreadable("no '" + keyField + "' field (--key-field)");
      }
    }
    long nanos;
    try {
      nanos =
          !time.isEmpty() && Character.isDigit(time.charAt(0)) && !time.contains("-")
              ? decimal(time, UNITS.get(timeUnit))
              : nanos(OffsetDateTime.parse(time, ISO_TIME));
    } catch (DateTimeException | ArithmeticException | NumberFormatException e) {
      throw new Unreadable(
          "a '"
              + timeField
              + "' that is neither a number of "
              + timeUnit
              + " since the epoch (--time-unit; such as 1796032800.125 in s) nor an ISO-8601 time"
              + " with an offset (such as 2026-12-01T08:00:00.125Z), such as '"
              + time
              + "'");
    }
    return new Request(text(nanos), nanos, key);
  }

  /** A non-negative decimal number of a unit, to the nearest nanosecond. */
  private static long decimal(String text, long unitNanos) {
    BigDecimal value = new BigDecimal(text);
    if (value.signum() < 0) {
      throw new NumberFormatException(text);
    }
    return value
        .multiply(BigDecimal.valueOf(unitNanos))
        .setScale(0, RoundingMode.HALF_EVEN)
        .longValueExact();
  }

  private static long nanos(OffsetDateTime time) {
    long seconds = time.toEpochSecond();
    if (seconds < 0) {
      throw new DateTimeException("before 1970");
    }
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), time.getNano());
  }

  /** Nanoseconds as decimal seconds, without trailing zeros: 1796032800 or 1796032800.125. */
  static String text(long nanos) {
    BigDecimal seconds = BigDecimal.valueOf(nanos).movePointLeft(9).stripTrailingZeros();
    return seconds.scale() < 0 ? seconds.setScale(0).toPlainString() : seconds.toPlainString();
  }

  /**
   * Seconds as written, to the nearest nanosecond: exact decimal arithmetic, no binary rounding.
   */
  static long toNanos(String seconds, int number) {
    try {
      BigDecimal value = new BigDecimal(seconds);
      if (value.signum() < 0) {
        throw new ReplayException(
            "line " + number + ": timestamp must not be negative, was '" + seconds + "'");
      }
      return value.multiply(NANOS_PER_SECOND).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw new ReplayException(
          "line "
              + number
              + ": expected a timestamp in seconds such as 5.02, was '"
              + seconds
              + "'");
    }
  }

  /**
   * The top-level fields of one JSON object on one line: strings unescaped, numbers, true, false
   * and null as written; nested objects and arrays are skipped. Enough to find a time and a key
   * without a JSON library.
   */
  private static final class JsonLine {
    private final String s;
    private int at;

    private JsonLine(String s) {
      this.s = s;
    }

    static Map<String, String> fields(String line) throws Unreadable {
      JsonLine json = new JsonLine(line);
      try {
        return json.object();
      } catch (IndexOutOfBoundsException e) {
        throw new Unreadable("not a JSON object on one line: it ends too early");
      }
    }

    private Map<String, String> object() throws Unreadable {
      Map<String, String> fields = new HashMap<>();
      expect('{');
      if (peek() == '}') {
        at++;
      } else {
        do {
          String name = string();
          expect(':');
          String value = value();
          if (value != null) {
            fields.put(name, value);
          }
        } while (next(',', '}'));
      }
      if (!s.substring(at).isBlank()) {
        throw new Unreadable("not a JSON object on one line: text after its closing brace");
      }
      return fields;
    }

    /** A scalar as text; null for a nested object or array, which is skipped. */
    private String value() throws Unreadable {
      char c = peek();
      if (c == '"') {
        return string();
      }
      if (c == '{' || c == '[') {
        skipNested();
        return null;
      }
      int from = at;
      while (at < s.length() && ",}] \t".indexOf(s.charAt(at)) < 0) {
        at++;
      }
      if (from == at) {
        throw new Unreadable("not a JSON object on one line: a value is missing");
      }
      return s.substring(from, at);
    }

    private String string() throws Unreadable {
      expect('"');
      StringBuilder out = new StringBuilder();
      for (char c = s.charAt(at++); c != '"'; c = s.charAt(at++)) {
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = s.charAt(at++);
        switch (e) {
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            try {
              out.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
            } catch (NumberFormatException ex) {
              throw new Unreadable("not a JSON object on one line: a bad \\u escape");
            }
            at += 4;
          }
          default -> out.append(e);
        }
      }
      return out.toString();
    }

    private void skipNested() {
      int depth = 0;
      boolean inString = false;
      do {
        char c = s.charAt(at++);
        if (inString) {
          if (c == '\\') {
            at++;
          } else if (c == '"') {
            inString = false;
          }
        } else if (c == '"') {
          inString = true;
        } else if (c == '{' || c == '[') {
          depth++;
        } else if (c == '}' || c == ']') {
          depth--;
        }
      } while (depth > 0);
    }

    private char peek() {
      while (Character.isWhitespace(s.charAt(at))) {
        at++;
      }
      return s.charAt(at);
    }

    private void expect(char c) throws Unreadable {
      if (peek() != c) {
        throw new Unreadable(
            "not a JSON object on one line: expected '" + c + "' at column " + (at + 1));
      }
      at++;
    }

    /** After a member: true for a comma (another member follows), false for the closing brace. */
    private boolean next(char more, char end) throws Unreadable {
      char c = peek();
      if (c != more && c != end) {
        throw new Unreadable(
            "not a JSON object on one line: expected ',' or '}' at column " + (at + 1));
      }
      at++;
      return c == more;
    }
  }
}
