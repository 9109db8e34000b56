package io.github.limiter.internal.config;

import static io.github.limiter.internal.config.LimiterConfigTest.failure;
import static io.github.limiter.internal.config.LimiterConfigTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.store.Stores;
import io.github.limiter.spi.ConfigLookup;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code limiter.top-keys.*} keys: off by default, read whole, errors naming key and value. */
class TopKeysSettingsTest {

  @Test
  void topKeysAreOffByDefault() {
    assertThat(read(Map.of()).topKeys()).isEqualTo(TopKeysSettings.DEFAULTS);
    assertThat(TopKeysSettings.DEFAULTS.enabled()).isFalse();
  }

  @Test
  void theSettingsAreRead() {
    TopKeysSettings settings =
        read(Map.of(
                "limiter.top-keys.enabled", "true",
                "limiter.top-keys.size", "25",
                "limiter.top-keys.window", "5m"))
            .topKeys();

    assertThat(settings).isEqualTo(new TopKeysSettings(true, 25, Duration.ofMinutes(5)));
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource({
    "limiter.top-keys.enabled, yes",
    "limiter.top-keys.size, 0",
    "limiter.top-keys.size, 1001",
    "limiter.top-keys.size, ten",
    "limiter.top-keys.window, 500ms",
    "limiter.top-keys.window, 2h",
    "limiter.top-keys.window, soon"
  })
  void aBadValueFailsNamingTheKeyAndTheValue(String key, String value) {
    failure(Map.of(key, value), key, "'" + value + "'");
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource({"limiter.top-keys.count, 10", "LIMITER_TOP_KEYS_SIZES, 10"})
  void anUnknownTopKeysKeyFails(String key, String value) {
    failure(Map.of(key, value), key, "'" + value + "'");
  }

  @Test
  void theStoreCheckLeavesTheTopKeysSectionToTheCore() {
    ConfigLookup config = ConfigLookup.of(Map.of("limiter.top-keys.enabled", "true"));

    assertThat(Stores.check("memory", config, getClass().getClassLoader()).name())
        .isEqualTo("memory");
  }
}
