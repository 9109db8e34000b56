package io.github.limiter.spi;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Read access to configuration properties, so that one mapper serves MicroProfile Config, filter
 * init-params, system properties and plain maps alike.
 */
public interface ConfigLookup {

  /** The value of {@code key}, if set. */
  Optional<String> get(String key);

  /** Every known property name; used to discover {@code limiter.policy.<name>.*} entries. */
  Iterable<String> names();

  /** A lookup over a map, e.g. for tests or init-params. */
  static ConfigLookup of(Map<String, String> properties) {
    Map<String, String> copy = Map.copyOf(properties);
    Set<String> names = new TreeSet<>(copy.keySet());
    return new ConfigLookup() {
      @Override
      public Optional<String> get(String key) {
        return Optional.ofNullable(copy.get(key));
      }

      @Override
      public Iterable<String> names() {
        return names;
      }
    };
  }
}
