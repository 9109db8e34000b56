package io.github.limiter.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.limiter.ConfigException;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A store's declared settings are read by the core, every bad one reported at once. */
class StoreSettingsTest {

  static final ClassLoader LOADER = StoreSettingsTest.class.getClassLoader();

  @Test
  void everyBadMemoryValueIsReportedAtOnce() {
    ConfigLookup lookup =
        ConfigLookup.of(Map.of("limiter.memory.max-keys", "0", "limiter.memory.overflow", "drop"));

    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> Stores.create(LimiterConfig.from(lookup), lookup, LOADER));

    assertThat(e.problems())
        .extracting(ConfigException::getMessage)
        .containsExactlyInAnyOrder(
            "limiter.memory.max-keys: expected an integer between 1 and 2147483647, was '0'",
            "limiter.memory.overflow: expected evict or reject-new-keys, was 'drop'");
  }

  @Test
  void theMemoryStoreIsMadeFromTheParsedConfiguration() {
    ConfigLookup lookup = ConfigLookup.of(Map.of("limiter.memory.max-keys", "7"));

    InMemoryStore store = (InMemoryStore) Stores.create(LimiterConfig.from(lookup), lookup, LOADER);

    assertThat(store.maxKeys()).isEqualTo(7);
  }
}
