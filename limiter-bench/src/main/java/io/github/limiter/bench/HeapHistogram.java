package io.github.limiter.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Compares two class histograms and prints the classes that grew, in bytes per key. */
final class HeapHistogram {

  private HeapHistogram() {}

  /** Parses lines such as {@code 1: 1000000 24000000 java.lang.String (java.base@17)}. */
  static Map<String, long[]> parse(String histogram) {
    Map<String, long[]> classes = new HashMap<>();
    for (String line : histogram.split("\n")) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length >= 4 && parts[0].endsWith(":")) {
        try {
          classes.put(parts[3], new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2])});
        } catch (NumberFormatException notARow) {
          // A header or the total line.
        }
      }
    }
    return classes;
  }

  static void printGrowth(String before, String after, int keys, PrintStream out) {
    Map<String, long[]> was = parse(before);
    List<Map.Entry<String, long[]>> grown = new ArrayList<>();
    for (Map.Entry<String, long[]> row : parse(after).entrySet()) {
      long[] old = was.getOrDefault(row.getKey(), new long[2]);
      long[] delta = {row.getValue()[0] - old[0], row.getValue()[1] - old[1]};
      if (delta[1] > keys / 100) {
        grown.add(Map.entry(row.getKey(), delta));
      }
    }
    grown.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
    for (Map.Entry<String, long[]> row : grown) {
      out.printf(
          Locale.ROOT,
          "  %-60s %10d instances %8.1f bytes/key%n",
          row.getKey(),
          row.getValue()[0],
          (double) row.getValue()[1] / keys);
    }
  }
}
