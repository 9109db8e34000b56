package io.github.limiter.servlet;

import java.util.LinkedHashMap;
import java.util.Map;

/** Configuration maps written as key/value pairs. */
final class Props {

  private Props() {}

  static Map<String, String> of(String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  /** {@code base} plus more pairs. */
  static Map<String, String> with(Map<String, String> base, String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>(base);
    map.putAll(of(keyValues));
    return map;
  }
}
