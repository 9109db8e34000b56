package io.github.limiter.internal.config;

import io.github.limiter.ConfigException;
import io.github.limiter.spi.ConfigLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The admin API's settings, {@code limiter.admin.*}: off unless enabled, and then only for a
 * container role or a bearer token.
 *
 * @param enabled {@code limiter.admin.enabled}
 * @param path {@code limiter.admin.path}, e.g. {@code /limiter/admin}
 * @param role {@code limiter.admin.role}, if set
 * @param token {@code limiter.admin.token}, if set: a secret, never shown
 */
public record AdminSettings(
    boolean enabled, String path, Optional<String> role, Optional<String> token) {

  @Override
  public String toString() {
    return "AdminSettings[enabled="
        + enabled
        + ", path="
        + path
        + ", role="
        + role
        + ", token="
        + (token.isPresent() ? "(set)" : "(none)")
        + "]";
  }

  /**
   * Reads and checks the admin settings.
   *
   * @throws ConfigException naming the bad key (a token's value is never shown)
   */
  public static AdminSettings from(ConfigLookup config) {
    return read(new ConfigReader(config));
  }

  static AdminSettings read(ConfigReader reader) {
    List<ConfigException> problems = new ArrayList<>();
    SettingValues values = SettingValues.read(reader, CoreSettings.ADMIN, problems);
    if (!problems.isEmpty()) {
      throw ConfigException.all(problems);
    }
    AdminSettings settings =
        new AdminSettings(
            values.get(CoreSettings.ADMIN_ENABLED),
            values.get(CoreSettings.ADMIN_PATH),
            Optional.ofNullable(values.get(CoreSettings.ADMIN_ROLE)).filter(r -> !r.isBlank()),
            Optional.ofNullable(values.get(CoreSettings.ADMIN_TOKEN)));
    if (settings.enabled && settings.role.isEmpty() && settings.token.isEmpty()) {
      throw new ConfigException(
          CoreSettings.ADMIN_ENABLED.name(),
          "the admin API needs limiter.admin.role or limiter.admin.token, was 'true' with neither");
    }
    return settings;
  }
}
