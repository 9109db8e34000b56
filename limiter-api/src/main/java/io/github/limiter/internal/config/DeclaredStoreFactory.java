package io.github.limiter.internal.config;

import io.github.limiter.RateLimitStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.spi.StoreFactory;
import java.util.List;
import java.util.Set;

/**
 * A store factory of this project, whose keys are declared once as {@link Setting}s: the core
 * checks their names, parses their values (every problem at once, each naming the key and the
 * value) and hands them over with its own parsed configuration, so that the store re-reads nothing.
 */
public interface DeclaredStoreFactory extends StoreFactory, SettingsSection {

  /** The store's settings, each named whole ({@code limiter.redis.url}). */
  @Override
  List<Setting<?>> settings();

  /** The store's name, which is also its section's: {@code limiter.redis.*}. */
  @Override
  String name();

  /**
   * Creates the store from its settings' values and the core's configuration.
   *
   * @throws io.github.limiter.ConfigException for a check across settings, naming the key and the
   *     value
   */
  RateLimitStore create(SettingValues settings);

  @Override
  default Set<String> keys() {
    return Setting.names(settings());
  }

  /** Reads the whole configuration, the core's and the store's, then creates the store. */
  @Override
  default RateLimitStore create(ConfigLookup config) {
    return create(SettingValues.forStore(this, config, LimiterConfig.from(config)));
  }
}
