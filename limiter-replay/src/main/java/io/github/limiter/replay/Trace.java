package io.github.limiter.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * A recorded trace: requests in time order, each with a time in nanoseconds and a key, held in
 * arrays so that a million-line access log replays a hundred times without allocating per request.
 *
 * @param texts each request's timestamp as written, echoed in the output
 * @param nanos each request's time in nanoseconds, never decreasing
 * @param keys each request's key, an index into {@code keyNames}
 * @param keyNames the distinct keys in order of first appearance; "" when the trace has none
 * @param notes what reading left out or reordered, for the user; empty for a clean trace
 */
record Trace(String[] texts, long[] nanos, int[] keys, String[] keyNames, List<String> notes) {

  /** The formats a trace can be in. */
  enum Format {
    /** One timestamp in seconds (decimal) a line, optionally followed by a key. */
    SECONDS,
    /** Common Log Format, keyed by client address, one-second resolution. */
    CLF,
    /** Combined Log Format: Common Log Format with referrer and user agent, read the same way. */
    COMBINED;

    boolean isAccessLog() {
      return this != SECONDS;
    }
  }

  private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
  private static final Pattern CLF = Pattern.compile("(\\S+) \\S+ \\S+ \\[([^\\]]+)] .*");
  private static final DateTimeFormatter CLF_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

  int size() {
    return nanos.length;
  }

  /**
   * Where offsets are counted from: 0 when the times are relative already (the first under a day),
   * else the start of the first request's second, such as an access log's first second.
   */
  long origin() {
    long first = nanos.length == 0 ? 0 : nanos[0];
    return first < 86_400_000_000_000L ? 0 : first / 1_000_000_000L * 1_000_000_000L;
  }

  /** The origin as a date, such as "2026-12-01 08:00:00 UTC"; "" when the times are relative. */
  String originText() {
    return origin() == 0
        ? ""
        : Instant.ofEpochSecond(origin() / 1_000_000_000L)
            .toString()
            .replace('T', ' ')
            .replace("Z", " UTC");
  }

  /**
   * A span of time as offsets from the origin, as the report's axis shows them: "from 0.125 s to
   * 3.100 s after 2026-12-01 08:00:00 UTC", or "from 5.100 s to 7.100 s" for relative times.
   */
  String span(long from, long to) {
    return "from "
        + Replay.seconds(from - origin())
        + " s to "
        + Replay.seconds(to - origin())
        + " s"
        + (origin() == 0 ? "" : " after " + originText());
  }

  /**
   * Reads a trace. A timestamp trace must be clean: its first bad line is an error. An access log
   * is read as a real one is written: unparseable lines are skipped and lines logged out of time
   * order are put back in it, and {@link #notes} says how many and why; {@code strict} makes both
   * errors.
   */
  static Trace read(BufferedReader reader, Format format, boolean strict) throws IOException {
    Builder trace = new Builder();
    Map<String, Skipped> skipped = new LinkedHashMap<>();
    int outOfOrder = 0;
    int firstOutOfOrder = 0;
    String lastTimeText = null;
    long lastTime = 0;
    int number = 0;
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      number++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String text;
      long nanos;
      String key;
      if (format.isAccessLog()) {
        Matcher matcher = CLF.matcher(line);
        if (!matcher.matches()) {
          skip(
              skipped,
              strict,
              number,
              "not in Common/Combined Log Format 'host ident user [dd/MMM/yyyy:HH:mm:ss Z] ...'");
          continue;
        }
        String time = matcher.group(2);
        if (!time.equals(lastTimeText)) { // consecutive lines mostly share their second: parse once
          try {
            lastTime = OffsetDateTime.parse(time, CLF_TIME).toEpochSecond();
            Math.multiplyExact(lastTime, 1_000_000_000L);
            lastTimeText = time;
          } catch (DateTimeParseException | ArithmeticException e) {
            skip(
                skipped,
                strict,
                number,
                "a time that is not dd/MMM/yyyy:HH:mm:ss Z, such as '" + time + "'");
            continue;
          }
        }
        text = Long.toString(lastTime);
        nanos = lastTime * 1_000_000_000L;
        key = matcher.group(1);
      } else {
        String[] fields = line.trim().split("\\s+");
        if (fields.length > 2) {
          throw new ReplayException(
              "line " + number + ": expected '<seconds> [key]', was '" + line.trim() + "'");
        }
        text = fields[0];
        nanos = toNanos(fields[0], number);
        key = fields.length == 2 ? fields[1] : "";
      }
      if (trace.size > 0 && nanos < trace.nanos[trace.size - 1]) {
        if (strict || !format.isAccessLog()) {
          throw new ReplayException(
              "line "
                  + number
                  + ": timestamp "
                  + text
                  + " goes back before "
                  + trace.texts[trace.size - 1]);
        }
        if (outOfOrder++ == 0) {
          firstOutOfOrder = number;
        }
      }
      trace.add(text, nanos, key);
    }
    List<String> notes = new ArrayList<>();
    skipped.forEach(
        (why, s) ->
            notes.add(
                "skipped "
                    + s.count
                    + " line"
                    + (s.count == 1 ? "" : "s")
                    + " (first: line "
                    + s.first
                    + "): "
                    + why));
    if (outOfOrder > 0) {
      notes.add(
          "put "
              + outOfOrder
              + " line"
              + (outOfOrder == 1 ? "" : "s")
              + " logged out of time order back in order (first: line "
              + firstOutOfOrder
              + ")");
    }
    if (!notes.isEmpty()) {
      notes.add("--strict makes these errors");
    }
    return trace.build(outOfOrder > 0, notes);
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

  private static final class Skipped {
    final int first;
    int count;

    Skipped(int first) {
      this.first = first;
    }
  }

  private static void skip(Map<String, Skipped> skipped, boolean strict, int number, String why) {
    if (strict) {
      throw new ReplayException("line " + number + ": " + why);
    }
    skipped.computeIfAbsent(why, w -> new Skipped(number)).count++;
  }

  /** Growable arrays, with keys interned to indices. */
  private static final class Builder {
    String[] texts = new String[1024];
    long[] nanos = new long[1024];
    int[] keys = new int[1024];
    int size;
    final Map<String, Integer> index = new HashMap<>();
    final List<String> names = new ArrayList<>();

    void add(String text, long time, String key) {
      if (size == nanos.length) {
        texts = Arrays.copyOf(texts, size * 2);
        nanos = Arrays.copyOf(nanos, size * 2);
        keys = Arrays.copyOf(keys, size * 2);
      }
      Integer k = index.get(key);
      if (k == null) {
        k = names.size();
        index.put(key, k);
        names.add(key);
      }
      texts[size] = text;
      nanos[size] = time;
      keys[size] = k;
      size++;
    }

    Trace build(boolean sort, List<String> notes) {
      String[] t = Arrays.copyOf(texts, size);
      long[] n = Arrays.copyOf(nanos, size);
      int[] k = Arrays.copyOf(keys, size);
      if (sort) { // stable, so requests of the same second keep their logged order
        long[] time = n;
        Integer[] order = IntStream.range(0, size).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingLong(i -> time[i]));
        String[] st = new String[size];
        long[] sn = new long[size];
        int[] sk = new int[size];
        for (int i = 0; i < size; i++) {
          st[i] = t[order[i]];
          sn[i] = n[order[i]];
          sk[i] = k[order[i]];
        }
        t = st;
        n = sn;
        k = sk;
      }
      return new Trace(t, n, k, names.toArray(String[]::new), List.copyOf(notes));
    }
  }
}
