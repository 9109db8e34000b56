package io.github.limiter.cdi;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;

/**
 * Makes {@code properties} the whole MicroProfile Config of this thread's class loader: no system
 * or environment values.
 */
final class TestConfig {

  private TestConfig() {}

  static void use(Map<String, String> properties) {
    ConfigProviderResolver resolver = ConfigProviderResolver.instance();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    clear();
    resolver.registerConfig(
        new SmallRyeConfigBuilder()
            .withSources(new PropertiesConfigSource(properties, "test", 500))
            .build(),
        loader);
  }

  static void clear() {
    ConfigProviderResolver resolver = ConfigProviderResolver.instance();
    resolver.releaseConfig(resolver.getConfig(Thread.currentThread().getContextClassLoader()));
  }

  /** Properties from alternating keys and values. */
  static Map<String, String> of(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
