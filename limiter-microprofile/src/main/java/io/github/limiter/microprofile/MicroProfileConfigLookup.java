package io.github.limiter.microprofile;

import io.github.limiter.internal.config.ConfigReader;
import io.github.limiter.spi.ConfigLookup;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The {@code limiter.*} keys from MicroProfile Config, with its usual sources and ordinals (system
 * properties, environment variables such as {@code LIMITER_STORE}, and {@code
 * META-INF/microprofile-config.properties}).
 */
public final class MicroProfileConfigLookup implements ConfigLookup {

  private final Config config;

  public MicroProfileConfigLookup(Config config) {
    this.config = config;
  }

  /** The lookup over the configuration of {@code loader}'s application. */
  public static MicroProfileConfigLookup forClassLoader(ClassLoader loader) {
    return new MicroProfileConfigLookup(ConfigProvider.getConfig(loader));
  }

  /**
   * Whether MicroProfile Config can be used from {@code loader}: adapters fall back to their own
   * properties (such as filter init-params) when it cannot.
   */
  public static boolean isAvailable(ClassLoader loader) {
    try {
      Class.forName("org.eclipse.microprofile.config.ConfigProvider", false, loader);
      ConfigProvider.getConfig(loader);
      return true;
    } catch (ClassNotFoundException | LinkageError | IllegalStateException e) {
      return false;
    }
  }

  /**
   * An adapter's own {@code limiter.*} settings ({@code params}: filter init-params, Jakarta REST
   * configuration properties), over MicroProfile Config when {@code loader}'s application has it;
   * {@code params} win.
   */
  public static ConfigLookup over(Map<String, String> params, ClassLoader loader) {
    ConfigLookup own = ConfigLookup.of(params);
    if (!isAvailable(loader)) {
      return own;
    }
    ConfigLookup microProfile = forClassLoader(loader);
    return params.isEmpty()
        ? microProfile
        : new ConfigLookup() {
          @Override
          public Optional<String> get(String key) {
            Optional<String> value = own.get(key);
            return value.isPresent() ? value : microProfile.get(key);
          }

          @Override
          public Iterable<String> names() {
            Set<String> names = new LinkedHashSet<>(params.keySet());
            microProfile.names().forEach(names::add);
            return names;
          }
        };
  }

  @Override
  public Optional<String> get(String key) {
    return config.getOptionalValue(key, String.class);
  }

  /**
   * The names every source lists, less those a source derives from its own environment variables:
   * SmallRye lists {@code LIMITER_HTTP_TRUSTED_PROXIES} again as {@code
   * limiter.http.trusted.proxies}, a guess that cannot tell '.' from '-'. So a key set in the
   * environment is only ever looked up by its real name, in every implementation alike.
   */
  @Override
  public Iterable<String> names() {
    Set<String> names = new TreeSet<>();
    for (ConfigSource source : config.getConfigSources()) {
      Set<String> listed = source.getPropertyNames();
      for (String name : listed) {
        String variable = ConfigReader.environmentForm(name);
        if (variable.equals(name) || !listed.contains(variable)) {
          names.add(name);
        }
      }
    }
    return names;
  }
}
