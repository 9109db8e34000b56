package io.github.limiter.servlet;

import io.github.limiter.ConfigException;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeSet;

/** The {@link KeyResolver}s by name: CDI beans first, then ServiceLoader services. */
final class KeyResolvers {

  private static final String CDI_CLASS = "jakarta.enterprise.inject.spi.CDI";

  private final Map<String, KeyResolver> byName;
  private final Map<String, String> classes;

  private KeyResolvers(Map<String, KeyResolver> byName, Map<String, String> classes) {
    this.byName = byName;
    this.classes = classes;
  }

  /** Looks the resolvers up once; only called when some policy names a resolver. */
  static KeyResolvers find(ClassLoader loader) {
    return find(loader, cdiBeans(loader));
  }

  /**
   * Checks the resolver names of {@code config} at start-up, before CDI may be running: only when
   * the CDI API is absent, so that every resolver must be a ServiceLoader service.
   */
  static void checkWithoutCdi(LimiterConfig config, ClassLoader loader) {
    if (hasCdi(loader)) {
      return;
    }
    KeyResolvers resolvers = null;
    java.util.Set<String> routed = routedPolicies(config);
    for (PolicyConfig policy : config.policies().values()) {
      if (policy.key().kind() == KeySource.Kind.RESOLVER && routed.contains(policy.name())) {
        resolvers = resolvers != null ? resolvers : find(loader, List.of());
        resolvers.get(LimiterConfig.POLICY_PREFIX + policy.name() + ".key",
            policy.key().argument());
      }
    }
  }

  /**
   * The policies some {@code limiter.route.*} names: only their {@code resolver:NAME} must be a
   * servlet KeyResolver. A policy on no route is applied by other adapters (a {@code @Limited}
   * method), which find resolvers of their own kind.
   */
  static java.util.Set<String> routedPolicies(LimiterConfig config) {
    java.util.Set<String> routed = new java.util.HashSet<>();
    config.routes().forEach(route -> routed.addAll(route.policies()));
    return routed;
  }

  private static KeyResolvers find(ClassLoader loader, List<KeyResolver> beans) {
    List<KeyResolver> all = new ArrayList<>(beans);
    try {
      for (KeyResolver resolver : ServiceLoader.load(KeyResolver.class, loader)) {
        all.add(resolver);
      }
    } catch (ServiceConfigurationError e) {
      throw new ConfigException("META-INF/services/" + KeyResolver.class.getName(),
          "cannot load a key resolver: " + e.getMessage(), e);
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
        // The same class as a bean and as a service is one resolver (the bean wins); two classes are a conflict.
        byName.put(name, null);
        classes.put(name, known + " and " + type);
      }
    }
    return new KeyResolvers(byName, classes);
  }

  /** The resolver {@code name} that policy key {@code key} names, or a ConfigException. */
  KeyResolver get(String key, String name) {
    if (!byName.containsKey(name)) {
      throw new ConfigException(key, "no key resolver named '" + name + "' (found " + new TreeSet<>(byName.keySet())
          + "); register a KeyResolver as a CDI bean or in META-INF/services/" + KeyResolver.class.getName()
          + ", was 'resolver:" + name + "'");
    }
    KeyResolver resolver = byName.get(name);
    if (resolver == null) {
      throw new ConfigException(key, "more than one key resolver is named '" + name + "' (" + classes.get(name)
          + "), was 'resolver:" + name + "'");
    }
    return resolver;
  }

  private static List<KeyResolver> cdiBeans(ClassLoader loader) {
    return hasCdi(loader) ? CdiKeyResolvers.find() : List.of();
  }

  private static boolean hasCdi(ClassLoader loader) {
    try {
      Class.forName(CDI_CLASS, false, KeyResolvers.class.getClassLoader());
      Class.forName(CDI_CLASS, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The bean class behind a CDI client proxy, so that bean and service compare as one class. */
  private static String className(KeyResolver resolver) {
    Class<?> type = resolver.getClass();
    while (type.getName().contains("$Proxy$") || type.getName().contains("$$")) {
      type = type.getSuperclass();
    }
    return type.getName();
  }

  /** Resolves with {@code resolver}, treating an exception or a blank key as no key. */
  static String resolve(KeyResolver resolver, HttpServletRequest request) {
    try {
      Optional<String> key = resolver.resolve(request);
      return key != null && key.isPresent() && !key.get().isBlank() ? key.get() : null;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
