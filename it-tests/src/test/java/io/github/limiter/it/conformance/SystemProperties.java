package io.github.limiter.it.conformance;

import java.util.List;
import java.util.Map;

/** Settings as JVM options. */
final class SystemProperties {

  private SystemProperties() {}

  /** {@code -Dkey=value} for each setting, in the map's order. */
  static List<String> of(Map<String, String> settings) {
    return settings.entrySet().stream().map(e -> "-D" + e.getKey() + "=" + e.getValue()).toList();
  }
}
