package io.github.limiter.spi;

import io.github.limiter.config.ConfigLookup;

/**
 * Creates a store named in configuration ({@code limiter.store=memory}, {@code redis}, or a user's
 * own). Factories are found through {@link java.util.ServiceLoader}, or as CDI beans where CDI is
 * present, so that adapters never import a store implementation.
 */
public interface StoreFactory {

  /** The name used by {@code limiter.store}, e.g. {@code memory}. */
  String name();

  /**
   * Creates the store from its own keys under {@code limiter.<name>.*}, e.g. {@code limiter.redis.url}.
   *
   * @throws io.github.limiter.config.ConfigException naming the key and the bad value
   */
  RateLimitStore create(ConfigLookup config);
}
