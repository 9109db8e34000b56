package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import io.github.limiter.spi.ConfigLookup;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** limiter.admin.*: off by default, and never on without a role or a token. */
class AdminSettingsTest {

  static AdminSettings read(Map<String, String> properties) {
    return AdminSettings.from(ConfigLookup.of(properties));
  }

  @Test
  void theAdminApiIsOffByDefault() {
    assertThat(read(Map.of()))
        .isEqualTo(new AdminSettings(false, "/limiter/admin", Optional.empty(), Optional.empty()));
  }

  @Test
  void onItNeedsARoleOrAToken() {
    assertThatThrownBy(() -> read(Map.of("limiter.admin.enabled", "true")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.admin.enabled")
        .hasMessageContaining("limiter.admin.role or limiter.admin.token");
    assertThat(read(Map.of("limiter.admin.enabled", "true", "limiter.admin.role", "ops")).role())
        .contains("ops");
  }

  @Test
  void aShortTokenIsRefusedWithoutShowingIt() {
    assertThatThrownBy(
            () -> read(Map.of("limiter.admin.enabled", "true", "limiter.admin.token", "hunter2")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.admin.token")
        .hasMessageNotContaining("hunter2");
    AdminSettings settings = read(Map.of("limiter.admin.token", "0123456789abcdef-long-enough"));
    assertThat(settings.token()).contains("0123456789abcdef-long-enough");
    assertThat(settings.toString()).doesNotContain("0123456789abcdef");
  }

  @Test
  void aBadPathIsNamed() {
    assertThatThrownBy(() -> read(Map.of("limiter.admin.path", "/ops/")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.admin.path")
        .hasMessageContaining("'/ops/'");
  }

  @Test
  void theDeploymentChecksTheAdminSettingsToo() {
    assertThatThrownBy(
            () ->
                LimiterConfig.from(
                    ConfigLookup.of(
                        Map.of("limiter.admin.enabled", "true", "limiter.admin.rol", "x"))))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.admin.rol")
        .hasMessageContaining("limiter.admin.role or limiter.admin.token");
  }
}
