package io.github.limiter.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A recorded trace: requests in time order, each with a time in nanoseconds and a key, held in
 * arrays so that a million-line access log replays a hundred times without allocating per request.
 *
 * @param texts each request's time as decimal seconds (as written, for a timestamp trace), echoed
 *     in the output
 * @param nanos each request's time in nanoseconds, never decreasing
 * @param keys each request's key, an index into {@code keyNames}
 * @param keyNames the distinct keys in order of first appearance; "" when the trace has none
 * @param notes for the user: what reading left out or reordered, and a one-second resolution; empty
 *     for a clean trace
 */
record Trace(String[] texts, long[] nanos, int[] keys, String[] keyNames, List<String> notes) {

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
   * errors. A trace of whole seconds gets a note on what that does to the window algorithms; {@code
   * spread} places each second's requests evenly inside it.
   */
  static Trace read(BufferedReader reader, LogFormat format, boolean strict, boolean spread)
      throws IOException {
    Builder trace = new Builder();
    Map<String, Skipped> skipped = new LinkedHashMap<>();
    int outOfOrder = 0;
    int firstOutOfOrder = 0;
    String firstFraction = null;
    int number = 0;
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      number++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      LogFormat.Request request;
      try {
        request = format.read(line, number);
      } catch (LogFormat.Unreadable e) {
        skip(skipped, strict, number, e.getMessage());
        continue;
      }
      if (trace.size > 0 && request.nanos() < trace.nanos[trace.size - 1]) {
        if (strict || !format.isAccessLog()) {
          throw new ReplayException(
              "line "
                  + number
                  + ": timestamp "
                  + request.text()
                  + " goes back before "
                  + trace.texts[trace.size - 1]);
        }
        if (outOfOrder++ == 0) {
          firstOutOfOrder = number;
        }
      }
      if (firstFraction == null && request.nanos() % 1_000_000_000L != 0) {
        firstFraction = "line " + number + ": '" + request.text() + "'";
      }
      trace.add(request.text(), request.nanos(), request.key());
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
    if (spread && firstFraction != null) {
      throw new ReplayException(
          "--spread is for a trace of whole seconds, and this one has sub-second times ("
              + firstFraction
              + "): replay it as it is");
    }
    Trace read = trace.build(outOfOrder > 0, List.of());
    if (firstFraction == null && read.sharesASecond()) {
      if (spread) {
        read = read.spread();
        notes.add(
            "one-second resolution: each second's requests were placed evenly inside it"
                + " (--spread)");
      } else {
        notes.add(
            "one-second resolution: every time in this trace is a whole second, so each second's"
                + " requests arrive at one instant, on a window boundary. A window algorithm then"
                + " meets a second's requests all at once, and the sliding window counter weighs"
                + " the whole previous window in at that instant, so it rejects more than it would"
                + " on the real traffic. --spread places each second's requests evenly inside it;"
                + " a log with sub-second times (--format nginx-msec, apache-msec, apache-usec, iso"
                + " or json) needs neither.");
      }
    }
    return new Trace(read.texts, read.nanos, read.keys, read.keyNames, List.copyOf(notes));
  }

  /** Whether two requests share a time, as a second's requests do in a whole-second log. */
  private boolean sharesASecond() {
    for (int i = 1; i < nanos.length; i++) {
      if (nanos[i] == nanos[i - 1]) {
        return true;
      }
    }
    return false;
  }

  /**
   * The same requests, the n requests of each second at (i + 1/2) / n of it, in the order they were
   * logged: evenly inside the second, and none on its boundary.
   */
  private Trace spread() {
    long[] spread = new long[nanos.length];
    String[] text = new String[nanos.length];
    for (int from = 0, to; from < nanos.length; from = to) {
      to = from;
      while (to < nanos.length && nanos[to] == nanos[from]) {
        to++;
      }
      long n = to - from;
      for (int i = from; i < to; i++) {
        spread[i] = nanos[from] + (2L * (i - from) + 1) * 1_000_000_000L / (2 * n);
        text[i] = LogFormat.text(spread[i]);
      }
    }
    return new Trace(text, spread, keys, keyNames, notes);
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
