package io.github.limiter.replay;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * Writes a Combined Log Format access log whose right limit is known by construction: legitimate
 * clients 10.0.x.y each at a steady 5 requests/s with Poisson jitter, and one abusive client
 * 203.0.113.66 at 100 requests/s, from one seed.
 *
 * <p>{@code java -cp limiter-replay/target/test-classes io.github.limiter.replay.AccessLogGenerator
 * LEGIT_KEYS SECONDS SEED FILE}; 100 keys for 1667 s is a million lines.
 */
final class AccessLogGenerator {

  static final String ABUSER = "203.0.113.66";
  static final double LEGIT_RATE = 5;
  static final double ABUSER_RATE = 100;
  private static final long START = Instant.parse("2026-12-01T08:00:00Z").getEpochSecond();
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

  private AccessLogGenerator() {}

  static String legit(int k) {
    return "10.0." + (k / 250) + "." + (k % 250 + 1);
  }

  /** Writes the log in Combined Log Format; returns the number of lines. */
  static int write(Writer out, int legitKeys, int seconds, long seed) throws IOException {
    return write(out, legitKeys, seconds, seed, false);
  }

  /**
   * Writes the log; returns the number of lines. With {@code msec}, the same traffic with nginx's
   * {@code [$msec]} in place of the whole-second time: seconds since the epoch, 3 decimals.
   */
  static int write(Writer out, int legitKeys, int seconds, long seed, boolean msec)
      throws IOException {
    Random random = new Random(seed);
    int capacity = (int) ((legitKeys * LEGIT_RATE + ABUSER_RATE) * seconds * 1.1) + 1024;
    long[] events = new long[capacity]; // time in microseconds << 20 | key, sorted as one array
    int n = 0;
    for (int k = 0; k <= legitKeys; k++) {
      double rate = k < legitKeys ? LEGIT_RATE : ABUSER_RATE;
      for (double t = exponential(random, rate); t < seconds; t += exponential(random, rate)) {
        if (n == events.length) {
          events = Arrays.copyOf(events, n * 2);
        }
        events[n++] = ((long) (t * 1_000_000) << 20) | k;
      }
    }
    Arrays.sort(events, 0, n);
    long lastSecond = -1;
    String time = null;
    for (int i = 0; i < n; i++) {
      long second = START + (events[i] >>> 20) / 1_000_000;
      int k = (int) (events[i] & 0xFFFFF);
      if (second != lastSecond) {
        time = TIME.format(Instant.ofEpochSecond(second));
        lastSecond = second;
      }
      out.write(k < legitKeys ? legit(k) : ABUSER);
      out.write(" - - [");
      out.write(
          msec
              ? String.format(Locale.ROOT, "%d.%03d", second, (events[i] >>> 20) / 1_000 % 1_000)
              : time);
      out.write(
          "] \"GET /api/items?page=" + (i % 7) + " HTTP/1.1\" 200 512 \"-\" \"generator/1.0\"\n");
    }
    return n;
  }

  private static double exponential(Random random, double rate) {
    return -Math.log(1 - random.nextDouble()) / rate;
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 4) {
      System.err.println("usage: AccessLogGenerator LEGIT_KEYS SECONDS SEED FILE");
      System.exit(2);
    }
    try (BufferedWriter out = Files.newBufferedWriter(Path.of(args[3]), StandardCharsets.UTF_8)) {
      int lines =
          write(out, Integer.parseInt(args[0]), Integer.parseInt(args[1]), Long.parseLong(args[2]));
      System.err.println("wrote " + lines + " lines to " + args[3]);
    }
  }
}
