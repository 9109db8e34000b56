package io.github.limiter.internal.config;

import io.github.limiter.ConfigException;
import io.github.limiter.spi.ConfigLookup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The values of settings named whole ({@code limiter.http.headers}, {@code limiter.redis.url}),
 * read one by one: a bad one adds its problem and stands at its default. A {@link
 * DeclaredStoreFactory} gets its own, together with the core's configuration.
 */
public final class SettingValues {

  private final ConfigReader reader;
  private final Map<Setting<?>, Object> values;
  private final LimiterConfig core;

  private SettingValues(ConfigReader reader, Map<Setting<?>, Object> values, LimiterConfig core) {
    this.reader = reader;
    this.values = values;
    this.core = core;
  }

  /** Reads each of {@code settings}, adding every problem to {@code problems}. */
  static SettingValues read(
      ConfigReader reader, List<Setting<?>> settings, List<ConfigException> problems) {
    Map<Setting<?>, Object> values = new HashMap<>();
    for (Setting<?> setting : settings) {
      try {
        values.put(setting, reader.get(setting.name(), setting));
      } catch (ConfigException e) {
        problems.add(e);
        values.put(setting, setting.fallback());
      }
    }
    return new SettingValues(reader, values, null);
  }

  /**
   * The settings of {@code factory}, read from {@code config}, with the core's configuration {@code
   * core}.
   *
   * @throws ConfigException naming every bad key and its value, all at once
   */
  public static SettingValues forStore(
      DeclaredStoreFactory factory, ConfigLookup config, LimiterConfig core) {
    List<ConfigException> problems = new ArrayList<>();
    SettingValues values = read(new ConfigReader(config), factory.settings(), problems);
    if (!problems.isEmpty()) {
      throw ConfigException.all(problems);
    }
    return new SettingValues(values.reader, values.values, core);
  }

  /** The core's configuration, for a store: lease mode is a policy's setting Redis applies. */
  public LimiterConfig core() {
    return Objects.requireNonNull(core, "the core's configuration, given only to a store");
  }

  /** The value of {@code setting}: parsed, or its default when it is not set. */
  @SuppressWarnings("unchecked")
  public <T> T get(Setting<T> setting) {
    if (!values.containsKey(setting)) {
      throw new IllegalArgumentException("not a declared setting: " + setting);
    }
    return (T) values.get(setting);
  }

  /** The text of {@code setting} if it is set, for a message that shows the value. */
  public Optional<String> text(Setting<?> setting) {
    return setting.isVerbatim() ? reader.raw(setting.name()) : reader.text(setting.name());
  }
}
