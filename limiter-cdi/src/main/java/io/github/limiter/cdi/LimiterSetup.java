package io.github.limiter.cdi;

import io.github.limiter.config.ConfigException;
import io.github.limiter.config.ConfigLookup;
import io.github.limiter.config.ConfigReader;
import io.github.limiter.config.LimiterConfig;
import io.github.limiter.http.ResponseRenderer;
import io.github.limiter.microprofile.MicroProfileConfigLookup;

/**
 * The configuration as read once from MicroProfile Config, and what is derived from it.
 *
 * @param config the policies, the store's name and the HTTP settings
 * @param lookup the lookup it was read from, for the store factory's own keys
 * @param loader the application's class loader, to find store factories
 * @param renderer the one response writer, as configured
 * @param addresses how to find a client address
 * @param nearLimit the fraction of a quota at or below which {@link RateLimitNearLimit} fires
 */
record LimiterSetup(
    LimiterConfig config,
    ConfigLookup lookup,
    ClassLoader loader,
    ResponseRenderer renderer,
    ClientAddress addresses,
    double nearLimit) {

  /** Not part of {@link LimiterConfig} yet: read here until the core has it. */
  static final String NEAR_LIMIT = "limiter.events.near-limit";

  static final double DEFAULT_NEAR_LIMIT = 0.1;

  /**
   * Reads and validates the configuration of {@code loader}'s application.
   *
   * @throws ConfigException naming the bad key and value
   * @throws IllegalStateException if MicroProfile Config is not available
   */
  static LimiterSetup load(ClassLoader loader) {
    ConfigLookup lookup;
    try {
      if (!MicroProfileConfigLookup.isAvailable(loader)) {
        throw new IllegalStateException(unavailable());
      }
      lookup = MicroProfileConfigLookup.forClassLoader(loader);
    } catch (LinkageError e) {
      throw new IllegalStateException(unavailable(), e);
    }
    LimiterConfig config = LimiterConfig.from(lookup);
    ConfigReader reader = new ConfigReader(lookup);
    double nearLimit = reader.optional(NEAR_LIMIT, LimiterSetup::fraction, DEFAULT_NEAR_LIMIT);
    ClientAddress addresses =
        new ClientAddress(config.http(), reader.text(ClientAddress.FORWARDED_HEADER).orElse("x-forwarded-for"));
    return new LimiterSetup(config, lookup, loader, new ResponseRenderer(config.http()), addresses, nearLimit);
  }

  private static String unavailable() {
    return "MicroProfile Config is not available to read the limiter.* keys: deploy to a MicroProfile"
        + " runtime (Payara, WildFly), or add an implementation such as io.smallrye.config:smallrye-config";
  }

  private static double fraction(String text) {
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      value = Double.NaN;
    }
    if (!(value > 0 && value <= 1)) {
      throw new IllegalArgumentException(
          "expected a fraction of the quota above 0 and at most 1, such as 0.1, was '" + text + "'");
    }
    return value;
  }
}
