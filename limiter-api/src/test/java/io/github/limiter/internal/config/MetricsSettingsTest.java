package io.github.limiter.internal.config;

import static io.github.limiter.internal.config.LimiterConfigTest.failure;
import static io.github.limiter.internal.config.LimiterConfigTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.store.Stores;
import io.github.limiter.spi.ConfigLookup;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code limiter.metrics.*} keys: defaults, switches, and errors naming key and value. */
class MetricsSettingsTest {

  @Test
  void everyBackendIsOnByDefault() {
    MetricsSettings metrics = read(Map.of()).metrics();

    assertThat(metrics).isEqualTo(MetricsSettings.DEFAULTS);
    assertThat(metrics.microprofileOn()).isTrue();
    assertThat(metrics.opentelemetryOn()).isTrue();
    assertThat(metrics.micrometerOn()).isTrue();
  }

  @Test
  void theTopLevelSwitchTurnsEveryBackendOff() {
    MetricsSettings metrics = read(Map.of("limiter.metrics.enabled", "false")).metrics();

    assertThat(metrics.microprofileOn()).isFalse();
    assertThat(metrics.opentelemetryOn()).isFalse();
    assertThat(metrics.micrometerOn()).isFalse();
  }

  @Test
  void eachBackendHasItsOwnSwitch() {
    MetricsSettings metrics =
        read(Map.of(
                "limiter.metrics.microprofile.enabled", "false",
                "limiter.metrics.micrometer.enabled", "false"))
            .metrics();

    assertThat(metrics).isEqualTo(new MetricsSettings(true, false, true, false));
    assertThat(metrics.opentelemetryOn()).isTrue();
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource({"limiter.metrics.enabled, yes", "limiter.metrics.opentelemetry.enabled, 1"})
  void aValueThatIsNotABooleanFails(String key, String value) {
    failure(Map.of(key, value), key, "'" + value + "'");
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource({
    "limiter.metrics.enable, true",
    "limiter.metrics.prometheus.enabled, true",
    "LIMITER_METRICS_MICROPROFILE_ENABLE, true"
  })
  void anUnknownMetricsKeyFails(String key, String value) {
    failure(Map.of(key, value), key, "'" + value + "'");
  }

  @Test
  void theStoreCheckLeavesTheMetricsSectionToTheCore() {
    ConfigLookup config = ConfigLookup.of(Map.of("limiter.metrics.enabled", "false"));

    assertThat(Stores.check("memory", config, getClass().getClassLoader()).name())
        .isEqualTo("memory");
  }
}
