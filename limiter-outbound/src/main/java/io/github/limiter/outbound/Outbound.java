package io.github.limiter.outbound;

import io.github.limiter.ConfigException;
import io.github.limiter.KeyResolver;
import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.admission.KeyResolvers;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.OutboundConfig;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.RecorderFactory;
import io.github.limiter.internal.store.Stores;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.microprofile.MicroProfileConfigLookup;
import io.github.limiter.spi.ConfigLookup;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * The outbound policies of an application, {@code limiter.outbound.NAME.*}, over the configured
 * store ({@code limiter.store}) and metrics: read and validated whole at start-up, so that a bad
 * value fails there, naming the key and the value.
 *
 * <pre>{@code
 * Outbound outbound = Outbound.fromConfig(ConfigLookup.of(properties));
 * HttpResponse<String> answer =
 *     outbound.policy("partner").orElseThrow().send(client, request, BodyHandlers.ofString());
 * }</pre>
 *
 * {@link #shared()} is the application's own, from MicroProfile Config, which {@link
 * OutboundFilter} uses when a MicroProfile Rest Client registers it.
 */
public final class Outbound implements AutoCloseable {

  private static final Object SHARED_LOCK = new Object();
  private static volatile Outbound shared;

  private final Map<String, OutboundLimiter> policies;
  private final Map<String, OutboundLimiter> byUpstream;
  private final RateLimitStore store;
  private final OverdueCalls overdue;

  private Outbound(
      Map<String, OutboundLimiter> policies, RateLimitStore store, OverdueCalls overdue) {
    this.policies = policies;
    this.store = store;
    this.overdue = overdue;
    Map<String, OutboundLimiter> upstreams = new LinkedHashMap<>();
    for (OutboundLimiter limiter : policies.values()) {
      for (String upstream : limiter.config().upstreams()) {
        OutboundLimiter other = upstreams.putIfAbsent(upstream, limiter);
        if (other != null) {
          throw new ConfigException(
              OutboundConfig.PREFIX + limiter.name() + ".upstreams",
              "upstream "
                  + upstream
                  + " is already limited by outbound policy '"
                  + other.name()
                  + "'; a call is limited by one outbound policy, was '"
                  + String.join(",", limiter.config().upstreams())
                  + "'");
        }
      }
    }
    this.byUpstream = upstreams;
  }

  /**
   * The outbound policies of {@code config}, over the store it names, found with the thread's
   * context class loader.
   *
   * @throws ConfigException naming every bad key and its value
   */
  public static Outbound fromConfig(ConfigLookup config) {
    return fromConfig(config, loader());
  }

  /** As {@link #fromConfig(ConfigLookup)}, finding stores, resolvers and metrics with loader. */
  public static Outbound fromConfig(ConfigLookup config, ClassLoader loader) {
    Map<String, OutboundConfig> configs = OutboundConfig.readAll(config);
    LimiterConfig core = LimiterConfig.from(config);
    KeyResolvers resolvers = KeyResolvers.find(List.of(), loader);
    Map<String, KeyResolver> resolverOf = new TreeMap<>();
    configs.forEach(
        (name, c) -> {
          KeySource credential = c.credential();
          if (credential != null && credential.kind() == KeySource.Kind.RESOLVER) {
            resolverOf.put(
                name,
                resolvers.get(OutboundConfig.PREFIX + name + ".credential", credential.argument()));
          }
        });
    Recorder recorder = RecorderFactory.load(core.metrics(), loader);
    // Without outbound policies, no connection to a store that nothing would use
    RateLimitStore store =
        configs.isEmpty() ? InMemoryStore.create() : Stores.create(core, config, loader);
    return of(
        configs.values(),
        store,
        recorder,
        resolverOf,
        NanoClock.system(),
        Sleeper.THREAD,
        Clock.systemUTC(),
        new SecureRandom());
  }

  static Outbound of(
      Collection<OutboundConfig> configs,
      RateLimitStore store,
      Recorder recorder,
      Map<String, KeyResolver> resolvers,
      NanoClock clock,
      Sleeper sleeper,
      Clock wall,
      RandomGenerator random) {
    Map<String, OutboundLimiter> policies = new LinkedHashMap<>();
    OverdueCalls overdue = new OverdueCalls();
    for (OutboundConfig c : configs) {
      policies.put(
          c.name(),
          new OutboundLimiter(
              c, store, recorder, resolvers.get(c.name()), clock, sleeper, wall, random, overdue));
    }
    return new Outbound(policies, store, overdue);
  }

  /**
   * The application's outbound policies, read once from MicroProfile Config (else from the system
   * properties) with the thread's context class loader.
   *
   * @throws ConfigException naming every bad key and its value
   */
  public static Outbound shared() {
    Outbound current = shared;
    if (current != null) {
      return current;
    }
    synchronized (SHARED_LOCK) {
      if (shared == null) {
        ClassLoader loader = loader();
        ConfigLookup config =
            MicroProfileConfigLookup.isAvailable(loader)
                ? MicroProfileConfigLookup.forClassLoader(loader)
                : systemProperties();
        shared = fromConfig(config, loader);
      }
      return shared;
    }
  }

  /** Closes the store of {@link #shared()}, if it was read; the next call reads it again. */
  static void closeShared() {
    synchronized (SHARED_LOCK) {
      if (shared != null) {
        shared.close();
        shared = null;
      }
    }
  }

  private static ConfigLookup systemProperties() {
    Properties properties = System.getProperties();
    Map<String, String> copy = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      copy.put(name, properties.getProperty(name));
    }
    return ConfigLookup.of(copy);
  }

  private static ClassLoader loader() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return loader != null ? loader : Outbound.class.getClassLoader();
  }

  /** The outbound policy called {@code name}. */
  public Optional<OutboundLimiter> policy(String name) {
    return Optional.ofNullable(policies.get(name));
  }

  /** The outbound policy whose {@code upstreams} list the origin of {@code uri}, if any. */
  public Optional<OutboundLimiter> forUpstream(URI uri) {
    String origin;
    try {
      origin = OutboundConfig.origin(uri);
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // not http(s): nothing to limit
    }
    return Optional.ofNullable(byUpstream.get(origin));
  }

  /** The names of the outbound policies. */
  public List<String> names() {
    return List.copyOf(policies.keySet());
  }

  /** Stops watching for overdue calls, and closes the store. */
  @Override
  public void close() {
    overdue.close();
    store.close();
  }
}
