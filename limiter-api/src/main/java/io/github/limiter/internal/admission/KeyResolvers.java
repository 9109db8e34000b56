package io.github.limiter.internal.admission;

import io.github.limiter.ConfigException;
import io.github.limiter.KeyResolver;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The {@link KeyResolver}s by {@link KeyResolver#name()}, the one lookup every adapter uses: the
 * CDI beans that the adapter finds first, then the ServiceLoader services. They are looked up once,
 * on the first name asked for, so that an adapter may create the lookup before its container runs.
 * The same class as a bean and as a service is one resolver (the bean wins); two classes under one
 * name are a conflict.
 */
public final class KeyResolvers implements RuleCompiler.ResolverLookup {

  private final Supplier<List<KeyResolver>> beans;
  private final ClassLoader loader;
  private Map<String, KeyResolver> byName;
  private Map<String, String> classes;

  private KeyResolvers(Supplier<List<KeyResolver>> beans, ClassLoader loader) {
    this.beans = beans;
    this.loader = loader;
  }

  /**
   * The resolvers that {@code beans} supplies, then the services of {@code loader}, looked up on
   * first use; a broken service entry is then a ConfigException.
   */
  public static KeyResolvers of(Supplier<List<KeyResolver>> beans, ClassLoader loader) {
    return new KeyResolvers(beans, loader);
  }

  /** The ServiceLoader services of {@code loader} alone: for an application without CDI. */
  public static KeyResolvers services(ClassLoader loader) {
    return new KeyResolvers(List::of, loader);
  }

  /**
   * Resolvers that cannot be looked up yet, as in a Build Compatible Extension's validation: a
   * resolver's name is what its instance says, so every name passes here and the application's
   * start checks it.
   */
  public static KeyResolvers unknownUntilStart() {
    return new KeyResolvers(null, null);
  }

  private synchronized void load() {
    if (byName != null) {
      return;
    }
    List<KeyResolver> all = new ArrayList<>(beans.get());
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
    Map<String, KeyResolver> named = new LinkedHashMap<>();
    Map<String, String> types = new LinkedHashMap<>();
    for (KeyResolver resolver : all) {
      String name = resolver.name();
      String type = className(resolver);
      String known = types.putIfAbsent(name, type);
      if (known == null) {
        named.put(name, resolver);
      } else if (!known.equals(type)) {
        named.put(name, null);
        types.put(name, known + " and " + type);
      }
    }
    classes = types;
    byName = named;
  }

  /** Why {@code name} cannot be used, or null if it can. */
  public synchronized String problem(String name) {
    if (beans == null) {
      return null; // unknown until the start, which checks it
    }
    load();
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
  public synchronized KeyResolver get(String key, String name) {
    if (beans == null) {
      throw new IllegalStateException("key resolvers are looked up once the application starts");
    }
    String problem = problem(name);
    if (problem != null) {
      throw new ConfigException(key, problem + ", was 'resolver:" + name + "'");
    }
    return byName.get(name);
  }

  /** The resolver {@code name} that a policy's {@code setting} names, or a ConfigException. */
  @Override
  public Supplier<KeyResolver> find(PolicyConfig policy, String setting, String name) {
    KeyResolver resolver = get(LimiterConfig.POLICY_PREFIX + policy.name() + "." + setting, name);
    return () -> resolver;
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
