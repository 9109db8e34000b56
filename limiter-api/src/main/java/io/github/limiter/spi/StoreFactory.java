package io.github.limiter.spi;

import io.github.limiter.RateLimitStore;
import java.util.Set;

/**
 * Creates a store named in configuration ({@code limiter.store=memory}, {@code redis}, or a user's
 * own). Factories are found through {@link java.util.ServiceLoader}, so that adapters never import
 * a store implementation.
 */
public interface StoreFactory {

  /** The name used by {@code limiter.store}, e.g. {@code memory}. */
  String name();

  /**
   * Creates the store from its own keys under {@code limiter.<name>.*}, e.g. {@code
   * limiter.redis.url}. The adapters call it once the core's keys are valid, and only with keys
   * under that section that are among {@link #keys()}. Report every problem by throwing a {@link
   * io.github.limiter.ConfigException} (one for several: {@link
   * io.github.limiter.ConfigException#all}): the adapters fail the deployment with it, as with the
   * core's own, so a bad value is never left at a default.
   *
   * @throws io.github.limiter.ConfigException naming the key and the bad value
   */
  RateLimitStore create(ConfigLookup config);

  /**
   * Every key this factory reads, whole ({@code limiter.redis.url}), so that a misspelt key under
   * {@code limiter.<name>.} fails at start-up like any unknown key instead of leaving a default in
   * place. Empty, the default, leaves its keys unchecked.
   */
  default Set<String> keys() {
    return Set.of();
  }
}
