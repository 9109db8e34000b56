package io.github.limiter.internal.http;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * Random cases for the address and header property tests on plain JUnit 5 (the scheme of {@code
 * io.github.limiter.Cases}, with generators of near-valid text; moved here with those tests):
 * {@code count} cases from a fixed base seed, each generated from a seed of its own that its name
 * shows. Use as {@code @ParameterizedTest(name = "{0}") @MethodSource("cases")}.
 *
 * <p>The same base seed gives the same cases on every run. To run one case alone, pass its seed or
 * its number (Surefire reports case 17 as {@code theProperty(String)[17]}) with {@code -Dtest}
 * naming its test: {@code -Dlimiter.cases.seed=<seed>} or {@code -Dlimiter.cases.index=17}.
 */
public final class RandomCases {

  /** Parts of addresses and Forwarded headers, so that garbage often comes close to valid. */
  private static final String[] FRAGMENTS = {
    "for=",
    "For=",
    "by=",
    "proto=",
    "host=",
    "\"",
    "\\",
    "\\\"",
    ";",
    ",",
    " ",
    "\t",
    "=",
    "[",
    "]",
    ":",
    "::",
    ".",
    "%",
    "%eth0",
    "_",
    "_hidden",
    "unknown",
    "0",
    "1",
    "00",
    "01",
    "09",
    "255",
    "256",
    "4711",
    "65535",
    "123456",
    "ffff",
    "FFFF",
    "::ffff:",
    "db8",
    "2001:db8::",
    "fe80::1",
    "192.0.2.1",
    "0x7f",
    "-",
    "١",
    "\u0000",
    "é",
    "\uD83D\uDE00",
    "\uD800"
  };

  private RandomCases() {}

  /** {@code count} cases from {@code baseSeed}, or only the one named by a replay property. */
  public static <T> Stream<Named<T>> of(
      long baseSeed, int count, Function<SplittableRandom, T> generator) {
    String seedToReplay = System.getProperty("limiter.cases.seed");
    if (seedToReplay != null) {
      long seed = Long.parseLong(seedToReplay.trim());
      return Stream.of(
          Named.of("replay of seed " + seed, generator.apply(new SplittableRandom(seed))));
    }
    String indexToReplay = System.getProperty("limiter.cases.index");
    int only = indexToReplay == null ? 0 : Integer.parseInt(indexToReplay.trim());
    SplittableRandom seeds = new SplittableRandom(baseSeed);
    return IntStream.rangeClosed(1, count)
        .mapToObj(i -> Map.entry(i, seeds.nextLong()))
        .filter(c -> only == 0 || c.getKey() == only)
        .map(
            c ->
                Named.of(
                    "case " + c.getKey() + " of " + count + ", seed " + c.getValue(),
                    generator.apply(new SplittableRandom(c.getValue()))));
  }

  /**
   * An int in [0, {@code max}]: half the time uniform, half the time log-uniform, so small ones are
   * common.
   */
  public static int upTo(SplittableRandom random, int max) {
    if (random.nextBoolean()) {
      return random.nextInt(max + 1);
    }
    int bits = random.nextInt(32 - Integer.numberOfLeadingZeros(max) + 1);
    return random.nextInt(Math.min(max, (1 << bits) - 1) + 1);
  }

  /** One of {@code values}, each equally likely. */
  @SafeVarargs
  public static <T> T oneOf(SplittableRandom random, T... values) {
    return values[random.nextInt(values.length)];
  }

  /**
   * {@code length} bytes: uniform, or (half the time) mostly 0x00 and 0xff, so that runs of zeros
   * and the IPv4-mapped and -compatible forms ({@code ::ffff:a.b.c.d}, {@code ::a.b.c.d}) come up.
   */
  public static byte[] bytes(SplittableRandom random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    if (random.nextBoolean()) {
      for (int i = 0; i < length; i++) {
        int roll = random.nextInt(10);
        bytes[i] = roll < 5 ? 0 : roll < 7 ? (byte) 0xff : bytes[i];
      }
      if (length == 16 && random.nextBoolean()) {
        // The first 10 bytes zero, then 0000 (compatible) or ffff (mapped), then an IPv4 address
        Arrays.fill(bytes, 0, 10, (byte) 0);
        byte b = random.nextBoolean() ? (byte) 0xff : 0;
        bytes[10] = b;
        bytes[11] = b;
      }
    }
    return bytes;
  }

  /**
   * Text of up to 255 chars: any UTF-16 chars (lone surrogates included), printable ASCII, pieces
   * of addresses and Forwarded headers strung together, or a well-formed Forwarded header, half the
   * time cut short (which leaves open quotes and dangling escapes).
   */
  public static String text(SplittableRandom random) {
    int length = upTo(random, 255);
    StringBuilder text = new StringBuilder(length);
    switch (random.nextInt(4)) {
      case 0 -> {
        for (int i = 0; i < length; i++) {
          text.append((char) random.nextInt(Character.MAX_VALUE + 1));
        }
      }
      case 1 -> {
        for (int i = 0; i < length; i++) {
          text.append((char) random.nextInt(' ', '~' + 1));
        }
      }
      case 2 -> {
        while (text.length() < length) {
          text.append(oneOf(random, FRAGMENTS));
        }
      }
      default -> {
        String header = forwarded(random);
        return random.nextBoolean() ? header : header.substring(0, cut(random, header));
      }
    }
    return text.toString();
  }

  /**
   * Where to cut {@code header}: anywhere, or (half the time) just after a quote, escape, '=', ';'
   * or ','.
   */
  private static int cut(SplittableRandom random, String header) {
    if (random.nextBoolean()) {
      char special = oneOf(random, '"', '\\', '=', ';', ',');
      int[] after =
          IntStream.range(0, header.length())
              .filter(i -> header.charAt(i) == special)
              .map(i -> i + 1)
              .toArray();
      if (after.length > 0) {
        return after[random.nextInt(after.length)];
      }
    }
    return random.nextInt(header.length() + 1);
  }

  /**
   * A Forwarded header of 1 to 4 elements of 1 to 3 pairs, values as tokens or quoted strings with
   * escapes.
   */
  private static String forwarded(SplittableRandom random) {
    StringBuilder header = new StringBuilder();
    for (int element = random.nextInt(1, 5); element > 0; element--) {
      for (int pair = random.nextInt(1, 4); pair > 0; pair--) {
        header.append(oneOf(random, "for", "For", "by", "proto", "host")).append('=');
        String value =
            oneOf(
                random,
                "192.0.2.60",
                "192.0.2.1:8080",
                "[2001:db8:cafe::17]:4711",
                "[::1]",
                "unknown",
                "_hidden",
                "::ffff:192.0.2.7",
                "fe80::1%eth0",
                "http",
                "",
                "a\\b",
                "x\"y",
                "\\",
                "\"\"");
        boolean quoted =
            value.isEmpty()
                || value.indexOf('"') >= 0
                || value.indexOf('\\') >= 0
                || value.indexOf('[') >= 0
                || random.nextBoolean();
        header.append(
            quoted ? '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"' : value);
        header.append(pair > 1 ? oneOf(random, ";", " ; ", ";\t") : "");
      }
      header.append(element > 1 ? oneOf(random, ",", ", ", " ,\t") : "");
    }
    return header.toString();
  }
}
