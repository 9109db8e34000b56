package io.github.limiter.internal.config;

import io.github.limiter.ConfigException;
import io.github.limiter.spi.ConfigLookup;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Typed access to configuration keys through their {@link Setting}s, every error a {@link
 * ConfigException} that names the key and the value, and the checks of key names. A check over many
 * keys reports every bad one at once ({@link ConfigException#all}).
 */
public final class ConfigReader {

  private final ConfigLookup config;

  public ConfigReader(ConfigLookup config) {
    this.config = config;
  }

  /**
   * The NAMEs used under {@code prefix}. A key whose suffix is not {@code known} is added to the
   * problems (with the closest known key, if one is close), but its NAME is still a name: one typo
   * is one problem, and does not make the name unknown to the checks that refer to it.
   *
   * @param all every name used
   * @param withUnknownKeys the names with at least one unknown key
   */
  public record Names(Set<String> all, Set<String> withUnknownKeys) {}

  /** See {@link Names}. */
  public Names names(String prefix, Set<String> known, List<ConfigException> problems) {
    Set<String> names = new TreeSet<>();
    Set<String> misspelt = new TreeSet<>();
    for (String key : config.names()) {
      if (!key.startsWith(prefix)) {
        continue;
      }
      String rest = key.substring(prefix.length());
      int dot = rest.lastIndexOf('.');
      // A known key may have dots itself (quota.time-zone): the longest that ends the key wins.
      for (String k : known) {
        if (k.indexOf('.') > 0
            && rest.length() > k.length() + 1
            && rest.endsWith("." + k)
            && rest.length() - k.length() - 1 < (dot < 0 ? Integer.MAX_VALUE : dot + 1)) {
          dot = rest.length() - k.length() - 1;
        }
      }
      String suffix = dot < 0 ? "" : rest.substring(dot + 1);
      if (dot > 0 && known.contains(suffix)) {
        names.add(rest.substring(0, dot));
        continue;
      }
      problems.add(
          unknown(
              key,
              prefix + "<name>.<one of " + new TreeSet<>(known) + ">",
              dot > 0 ? hint(prefix + rest.substring(0, dot + 1), key, known) : ""));
      if (dot > 0) {
        misspelt.add(rest.substring(0, dot));
      }
    }
    names.addAll(misspelt);
    return new Names(names, misspelt);
  }

  /**
   * The names listed in {@code key} (comma-separated, each one {@code valid}): for sources that
   * cannot list the names of their keys, such as environment variables.
   */
  public Set<String> listedNames(String key, Predicate<String> valid, String expected) {
    Set<String> names = new TreeSet<>();
    List<ConfigException> problems = new ArrayList<>();
    for (String name : list(text(key).orElse(""))) {
      if (valid.test(name)) {
        names.add(name);
      } else {
        problems.add(
            new ConfigException(
                key, "expected a comma-separated list of " + expected + ", was '" + name + "'"));
      }
    }
    throwAll(problems);
    return names;
  }

  /**
   * Checks the environment variables under {@code prefix}. MicroProfile Config finds {@code
   * limiter.policy.api.limits} in {@code LIMITER_POLICY_API_LIMITS}, but a variable cannot be
   * mapped back to its key, so one that is the form of none of the {@code known} keys is a typo (or
   * names something that {@code hint} says how to declare), and fails like an unknown key.
   */
  public void checkEnvironmentForms(String prefix, Collection<String> known, String hint) {
    String variablePrefix = environmentForm(prefix);
    Set<String> forms = environmentForms(known);
    List<ConfigException> problems = new ArrayList<>();
    for (String name : config.names()) {
      if (name.startsWith(variablePrefix) && !forms.contains(name)) {
        problems.add(
            new ConfigException(
                name,
                "matches no known key; expected the environment form of a key under "
                    + prefix
                    + " ("
                    + hint
                    + "), was '"
                    + config.get(name).orElse("")
                    + "'"));
      }
    }
    throwAll(problems);
  }

  /**
   * Checks the keys directly under {@code prefix} ({@code limiter.store}, not {@code
   * limiter.redis.url}) and their environment forms ({@code LIMITER_STORE}): each must be one of
   * {@code known}, so that {@code limiter.stor=redis} fails instead of leaving the default store.
   */
  public void checkTopLevel(String prefix, Set<String> known) {
    String variablePrefix = environmentForm(prefix);
    Set<String> forms = environmentForms(known);
    List<ConfigException> problems = new ArrayList<>();
    for (String name : config.names()) {
      boolean dotted = name.startsWith(prefix) && name.indexOf('.', prefix.length()) < 0;
      boolean variable =
          name.startsWith(variablePrefix) && name.indexOf('_', variablePrefix.length()) < 0;
      if (dotted && !known.contains(name) || variable && !forms.contains(name)) {
        problems.add(
            new ConfigException(
                name,
                "unknown key; expected one of "
                    + new TreeSet<>(known)
                    + (dotted ? "" : " (here in their environment form)")
                    + " or a key under a section such as "
                    + prefix
                    + "policy., was '"
                    + config.get(name).orElse("")
                    + "'"
                    + (dotted ? Suggestion.hint(prefix, name, known) : "")));
      }
    }
    throwAll(problems);
  }

  /**
   * The name MicroProfile Config looks up in the environment for {@code key}: {@code
   * LIMITER_POLICY_API_LIMITS}.
   */
  public static String environmentForm(String key) {
    return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
  }

  /** The {@link #environmentForm} of each of {@code keys}. */
  public static Set<String> environmentForms(Collection<String> keys) {
    Set<String> forms = new TreeSet<>();
    keys.forEach(key -> forms.add(environmentForm(key)));
    return forms;
  }

  /**
   * Checks that every key under {@code prefix} is {@code prefix} followed by one of {@code known}.
   */
  public void checkKeys(String prefix, Set<String> known) {
    List<ConfigException> problems = new ArrayList<>();
    for (String key : config.names()) {
      String suffix = key.startsWith(prefix) ? key.substring(prefix.length()) : null;
      if (suffix != null && !known.contains(suffix)) {
        problems.add(
            unknown(
                key, prefix + "<one of " + new TreeSet<>(known) + ">", hint(prefix, key, known)));
      }
    }
    throwAll(problems);
  }

  /** Throws every one of {@code problems} at once, if there is one. */
  private static void throwAll(List<ConfigException> problems) {
    if (!problems.isEmpty()) {
      throw ConfigException.all(problems);
    }
  }

  /** The {@link Suggestion#hint} for {@code key} among the keys {@code base + known}. */
  private static String hint(String base, String key, Set<String> known) {
    return Suggestion.hint(base, key, known.stream().map(k -> base + k).toList());
  }

  private ConfigException unknown(String key, String expected, String hint) {
    return new ConfigException(
        key,
        "unknown key; expected " + expected + ", was '" + config.get(key).orElse("") + "'" + hint);
  }

  /** The value of {@code key} as written, spaces and empty text included. */
  public Optional<String> raw(String key) {
    return config.get(key);
  }

  /** The value of {@code key}, trimmed; empty text is not set. */
  public Optional<String> text(String key) {
    return config.get(key).map(String::trim).filter(value -> !value.isEmpty());
  }

  /**
   * The value of {@code setting} at {@code key}: parsed, or its default when not set.
   *
   * @throws ConfigException naming the key and the value, or that a required key is not set
   */
  public <T> T get(String key, Setting<T> setting) {
    Optional<String> value = setting.isVerbatim() ? raw(key) : text(key);
    if (value.isPresent()) {
      return parse(key, value.get(), setting::parse);
    }
    if (setting.isRequired()) {
      throw new ConfigException(key, "required, but not set");
    }
    return setting.fallback();
  }

  public <T> T parse(String key, String value, Function<String, T> parser) {
    try {
      return parser.apply(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, e.getMessage(), e);
    }
  }

  /** A parser of whole numbers from {@code min} to {@code max}. */
  public static Function<String, Long> integer(long min, long max) {
    return text -> {
      long value = parseLong(text);
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            "expected an integer between " + min + " and " + max + ", was '" + value + "'");
      }
      return value;
    };
  }

  public static List<String> list(String value) {
    return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  public static boolean parseBoolean(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("expected true or false, was '" + value + "'");
    };
  }

  public static long parseLong(String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected an integer, was '" + value + "'", e);
    }
  }
}
