package io.github.limiter.it.harness;

import java.util.HashMap;
import java.util.Map;

/**
 * Reads a scrape in the Prometheus text format, as a server serves it: series matched by label
 * name, never by position, whatever extra labels the server adds (Payara's {@code mp_scope}).
 */
public final class Prometheus {

  private Prometheus() {}

  /**
   * The sum of every {@code name} series whose labels include {@code labels} (name, value pairs); 0
   * when there is none, as for a counter never incremented.
   */
  public static double sum(String scrape, String name, String... labels) {
    Map<String, String> wanted = new HashMap<>();
    for (int i = 0; i < labels.length; i += 2) {
      wanted.put(labels[i], labels[i + 1]);
    }
    double sum = 0;
    for (String line : scrape.split("\n")) {
      line = line.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.indexOf(' ');
      int nameEnd = brace >= 0 && (space < 0 || brace < space) ? brace : space;
      if (nameEnd < 0 || !line.substring(0, nameEnd).equals(name)) {
        continue;
      }
      Map<String, String> found = new HashMap<>();
      int at = nameEnd;
      if (brace == nameEnd) {
        at = labels(line, brace + 1, found);
      }
      if (found.entrySet().containsAll(wanted.entrySet())) {
        String[] rest =
            line.substring(at).strip().split("\\s+"); // the value, then maybe a timestamp
        sum += Double.parseDouble(rest[0]);
      }
    }
    return sum;
  }

  /**
   * Parses {@code a="x",b="y\"z"}} from {@code from} into {@code into}; returns the index after the
   * '}'.
   */
  private static int labels(String line, int from, Map<String, String> into) {
    int i = from;
    while (true) {
      while (line.charAt(i) == ' ' || line.charAt(i) == ',') {
        i++;
      }
      if (line.charAt(i) == '}') {
        return i + 1;
      }
      int eq = line.indexOf('=', i);
      String label = line.substring(i, eq).strip();
      i = line.indexOf('"', eq) + 1;
      StringBuilder value = new StringBuilder();
      for (char c = line.charAt(i); c != '"'; c = line.charAt(++i)) {
        if (c == '\\') {
          char next = line.charAt(++i);
          value.append(next == 'n' ? '\n' : next);
        } else {
          value.append(c);
        }
      }
      into.put(label, value.toString());
      i++;
    }
  }
}
