package io.github.limiter.internal.store;

import io.github.limiter.ConfigException;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.ConfigReader;
import io.github.limiter.internal.config.DeclaredStoreFactory;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.SettingValues;
import io.github.limiter.internal.config.SettingsSection;
import io.github.limiter.internal.config.Suggestion;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.spi.StoreFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Finds the store named by {@code limiter.store} among the {@link StoreFactory} services. */
public final class Stores {

  /** The artifact of each of the project's stores that is not in the core. */
  private static final Map<String, String> ARTIFACTS =
      Map.of("redis", "io.github.limiter:limiter-redis");

  /** The artifact of each of the project's modules that declares a section of its own. */
  private static final Map<String, String> SECTION_ARTIFACTS =
      Map.of("outbound", "io.github.limiter:limiter-outbound");

  private Stores() {}

  /**
   * Creates the store that {@code config} names, from its keys in {@code lookup}, looking for
   * factories with {@code loader} (the application's class loader in a container), after {@link
   * #check}. A {@link DeclaredStoreFactory} gets its settings parsed and checked here, every bad
   * value at once, and the parsed {@code config}: it re-reads nothing.
   *
   * @throws ConfigException for {@code limiter.store} if no factory has that name, for a key that
   *     no store reads, and for the store's bad values
   */
  public static RateLimitStore create(
      LimiterConfig config, ConfigLookup lookup, ClassLoader loader) {
    StoreFactory factory = check(config.store(), lookup, loader);
    return factory instanceof DeclaredStoreFactory declared
        ? declared.create(SettingValues.forStore(declared, lookup, config))
        : factory.create(lookup);
  }

  /**
   * Creates the store named {@code name} from {@code config}, after {@link #check}: a {@link
   * DeclaredStoreFactory} reads the core's configuration from {@code config} itself.
   *
   * @throws ConfigException for {@code limiter.store} if no factory has that name, or for a key
   *     that no store reads
   */
  public static RateLimitStore create(String name, ConfigLookup config, ClassLoader loader) {
    return check(name, config, loader).create(config);
  }

  /**
   * Checks the store keys without creating a store: that a factory named {@code name} is on the
   * class path, and that every key under {@code limiter.<x>.}, where x is neither the core's own
   * ({@code policy}, {@code route}, {@code http}, {@code events}, ...) nor a module's {@link
   * SettingsSection} found with {@code loader} (which checks its keys as it reads them), is a key
   * of the factory named x, as written or in its environment form ({@code LIMITER_REDIS_URL}). So a
   * misspelt store key, or one of a store that is not on the class path, fails at start-up instead
   * of being ignored.
   *
   * @return the factory named {@code name}
   * @throws ConfigException naming the bad key and its value
   */
  public static StoreFactory check(String name, ConfigLookup config, ClassLoader loader) {
    Map<String, StoreFactory> factories = new TreeMap<>();
    for (StoreFactory factory : ServiceLoader.load(StoreFactory.class, loader)) {
      factories.putIfAbsent(factory.name(), factory);
    }
    Set<String> sections = new TreeSet<>(LimiterConfig.CORE_SECTIONS);
    SettingsSection.load(loader).forEach(section -> sections.add(section.name()));
    List<ConfigException> problems = new ArrayList<>();
    StoreFactory factory = factories.get(name);
    if (factory == null) {
      problems.add(
          new ConfigException(
              LimiterConfig.STORE_KEY, missing(name, factories) + ", was '" + name + "'"));
    }
    List<Variables> variables =
        factories.values().stream().filter(f -> !f.keys().isEmpty()).map(Variables::of).toList();
    for (String key : config.names()) {
      if (key.startsWith(LimiterConfig.PREFIX)) {
        checkKey(key, config, name, factories, sections, problems);
      }
      for (Variables each : variables) {
        if (key.startsWith(each.prefix) && !each.names.contains(key)) {
          problems.add(unknown(key, config, each.factory));
        }
      }
    }
    if (!problems.isEmpty()) {
      throw ConfigException.all(problems);
    }
    return factory;
  }

  /**
   * That no store called {@code name} is among the {@code factories} found, and how to add it: the
   * project's own stores by their artifact, a misspelt name by the closest.
   */
  private static String missing(String name, Map<String, StoreFactory> factories) {
    String text =
        "no store named '" + name + "' on the class path; stores found: " + factories.keySet();
    if (ARTIFACTS.containsKey(name)) {
      return text + "; add the " + ARTIFACTS.get(name) + " dependency";
    }
    Set<String> known = new TreeSet<>(factories.keySet());
    known.addAll(ARTIFACTS.keySet());
    return text
        + Suggestion.closest(name, known)
            .map(
                meant ->
                    "; did you mean '"
                        + meant
                        + "'?"
                        + (factories.containsKey(meant) ? "" : " It is in " + ARTIFACTS.get(meant)))
            .orElse("; add the jar whose StoreFactory is named '" + name + "'");
  }

  /** The environment forms of a store's section ({@code LIMITER_REDIS_}) and of its keys. */
  private record Variables(String prefix, Set<String> names, StoreFactory factory) {
    static Variables of(StoreFactory factory) {
      return new Variables(
          ConfigReader.environmentForm(LimiterConfig.PREFIX + factory.name() + "."),
          ConfigReader.environmentForms(factory.keys()),
          factory);
    }
  }

  private static void checkKey(
      String key,
      ConfigLookup config,
      String store,
      Map<String, StoreFactory> factories,
      Set<String> sections,
      List<ConfigException> problems) {
    String rest = key.substring(LimiterConfig.PREFIX.length());
    int dot = rest.indexOf('.');
    if (dot < 0 || sections.contains(rest.substring(0, dot))) {
      return; // the core's own keys, which LimiterConfig checks, or a module's, which it checks
    }
    String section = rest.substring(0, dot);
    StoreFactory factory = factories.get(section);
    if (factory == null && SECTION_ARTIFACTS.containsKey(section)) {
      problems.add(
          new ConfigException(
              key,
              "unknown key: limiter."
                  + section
                  + ".* is read by "
                  + SECTION_ARTIFACTS.get(section)
                  + ", which is not on the class path; add that dependency, was '"
                  + config.get(key).orElse("")
                  + "'"));
    } else if (factory == null && !section.equals(store)) { // else limiter.store's says it all
      problems.add(
          new ConfigException(
              key,
              "unknown key: "
                  + missing(section, factories)
                  + "; the known sections are limiter."
                  + String.join(".*, limiter.", sections)
                  + ".*; was '"
                  + config.get(key).orElse("")
                  + "'"));
    } else if (factory != null && !factory.keys().isEmpty() && !factory.keys().contains(key)) {
      problems.add(unknown(key, config, factory));
    }
  }

  private static ConfigException unknown(String key, ConfigLookup config, StoreFactory factory) {
    return new ConfigException(
        key,
        "unknown key; store '"
            + factory.name()
            + "' reads "
            + new TreeSet<>(factory.keys())
            + (key.startsWith(LimiterConfig.PREFIX) ? "" : " (here in their environment form)")
            + ", was '"
            + config.get(key).orElse("")
            + "'"
            + Suggestion.hint(LimiterConfig.PREFIX + factory.name() + ".", key, factory.keys()));
  }
}
