package io.github.limiter.cdi;

import io.github.limiter.ConfigException;
import io.github.limiter.internal.admission.NearLimit;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.render.ResponseRenderer;
import io.github.limiter.microprofile.MicroProfileConfigLookup;
import io.github.limiter.spi.ConfigLookup;

/**
 * The configuration as read once from MicroProfile Config, and what is derived from it.
 *
 * @param config the policies, the store's name and the HTTP settings
 * @param lookup the lookup it was read from, for the store factory's own keys
 * @param loader the application's class loader, to find store factories
 * @param renderer the one response writer, as configured
 * @param nearLimit when {@link RateLimitNearLimit} fires and {@code limiter.near.limit} counts
 *     ({@code limiter.events.near-limit}, read by the core)
 */
record LimiterSetup(
    LimiterConfig config,
    ConfigLookup lookup,
    ClassLoader loader,
    ResponseRenderer renderer,
    NearLimit nearLimit) {

  /**
   * Reads and validates the configuration of {@code loader}'s application.
   *
   * @throws ConfigException naming the bad key and value
   * @throws IllegalStateException if MicroProfile Config is not available
   */
  static LimiterSetup load(ClassLoader loader) {
    ConfigLookup lookup = lookup(loader);
    LimiterConfig config = LimiterConfig.from(lookup);
    return new LimiterSetup(
        config,
        lookup,
        loader,
        new ResponseRenderer(config.http()),
        new NearLimit(config.events().nearLimit()));
  }

  /**
   * The MicroProfile Config of {@code loader}'s application.
   *
   * @throws IllegalStateException if MicroProfile Config is not available
   */
  static ConfigLookup lookup(ClassLoader loader) {
    try {
      if (!MicroProfileConfigLookup.isAvailable(loader)) {
        throw new IllegalStateException(unavailable());
      }
      return MicroProfileConfigLookup.forClassLoader(loader);
    } catch (LinkageError e) {
      throw new IllegalStateException(unavailable(), e);
    }
  }

  private static String unavailable() {
    return "MicroProfile Config is not available to read the limiter.* keys: deploy to a MicroProfile"
        + " runtime (Payara, WildFly), or add an implementation such as io.smallrye.config:smallrye-config";
  }
}
