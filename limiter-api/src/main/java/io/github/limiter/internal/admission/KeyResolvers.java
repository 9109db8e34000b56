package io.github.limiter.internal.admission;

import io.github.limiter.ConfigException;
import io.github.limiter.KeyResolver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * The {@link KeyResolver}s by {@link KeyResolver#name()}: the CDI beans an adapter found first,
 * then the ServiceLoader services. The same class as a bean and as a service is one resolver (the
 * bean wins); two classes under one name are a conflict.
 */
public final class KeyResolvers {

  private final Map<String, KeyResolver> byName;
  private final Map<String, String> classes;

  private KeyResolvers(Map<String, KeyResolver> byName, Map<String, String> classes) {
    this.byName = byName;
    this.classes = classes;
  }

  /**
   * {@code beans} and the services of {@code loader}; a broken service entry is a ConfigException.
   */
  public static KeyResolvers find(List<KeyResolver> beans, ClassLoader loader) {
    List<KeyResolver> all = new ArrayList<>(beans);
    try {
      for (KeyResolver resolver : ServiceLoader.load(KeyResolver.class, loader)) {
        all.add(resolver);
      }
    } catch (ServiceConfigurationError e) {
      throw new ConfigException(
          "META-INF/services/" + KeyResolver.class.getName(),
          "cannot load a key resolver: " + e.getMessage(),
          e);
    }
    Map<String, KeyResolver> byName = new LinkedHashMap<>();
    Map<String, String> classes = new LinkedHashMap<>();
    for (KeyResolver resolver : all) {
      String name = resolver.name();
      String type = className(resolver);
      String known = classes.putIfAbsent(name, type);
      if (known == null) {
        byName.put(name, resolver);
      } else if (!known.equals(type)) {
        byName.put(name, null);
        classes.put(name, known + " and " + type);
      }
    }
    return new KeyResolvers(byName, classes);
  }

  /** Why {@code name} cannot be used, or null if it can. */
  public String problem(String name) {
    if (!byName.containsKey(name)) {
      return "no key resolver named '"
          + name
          + "' (found "
          + new TreeSet<>(byName.keySet())
          + "); register a KeyResolver as a CDI bean or in META-INF/services/"
          + KeyResolver.class.getName();
    }
    return byName.get(name) == null
        ? "more than one key resolver is named '" + name + "' (" + classes.get(name) + ")"
        : null;
  }

  /**
   * The resolver {@code name} that config key {@code key} names, or a ConfigException naming both.
   */
  public KeyResolver get(String key, String name) {
    String problem = problem(name);
    if (problem != null) {
      throw new ConfigException(key, problem + ", was 'resolver:" + name + "'");
    }
    return byName.get(name);
  }

  /** The bean class behind a CDI client proxy, so that bean and service compare as one class. */
  private static String className(KeyResolver resolver) {
    Class<?> type = resolver.getClass();
    while (type.getName().contains("$Proxy$") || type.getName().contains("$$")) {
      type = type.getSuperclass();
    }
    return type.getName();
  }
}
