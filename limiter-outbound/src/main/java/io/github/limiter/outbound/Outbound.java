package io.github.limiter.outbound;

import io.github.limiter.ConfigException;
import io.github.limiter.KeyResolver;
import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.admission.KeyResolvers;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.RecorderFactory;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.internal.store.Stores;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import jakarta.enterprise.inject.spi.CDI;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * The application's own are a part of its one runtime, over its store and metrics ({@link #over}),
 * which {@link OutboundFilter} uses when a MicroProfile Rest Client registers it.
 */
public final class Outbound implements AutoCloseable {

  private final Map<String, OutboundLimiter> policies;
  private final Map<String, OutboundLimiter> byUpstream;
  private final RateLimitStore store;
  private final boolean ownsStore;
  private final OverdueCalls overdue;

  private Outbound(
      Map<String, OutboundLimiter> policies,
      RateLimitStore store,
      boolean ownsStore,
      OverdueCalls overdue) {
    this.policies = policies;
    this.store = store;
    this.ownsStore = ownsStore;
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
    Map<String, KeyResolver> resolverOf = resolvers(configs, loader);
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

  /**
   * The outbound policies of the application's {@code runtime}, over its store and metrics: a part
   * of it ({@link LimiterRuntime#part}), whose store it does not close. They decide through its
   * live limits, as inbound policies do: the admin API lists and changes them, {@code
   * limiter.config.refresh} refreshes them, and the readiness check names them.
   */
  static Outbound over(LimiterRuntime runtime) {
    // The runtime read and checked them whole (OutboundSection); their settings are re-read here
    Map<String, OutboundConfig> configs =
        runtime.lookup() == null ? Map.of() : OutboundConfig.readAll(runtime.lookup());
    for (OutboundConfig config : configs.values()) {
      // Live from the start: listed and changeable through the admin API before the first call
      runtime.live().store().bind(config.policy());
    }
    return build(
        configs.values(),
        runtime.live().store(),
        false,
        runtime.recorder(),
        resolvers(configs, runtime.loader()),
        NanoClock.system(),
        Sleeper.THREAD,
        Clock.systemUTC(),
        new SecureRandom());
  }

  /** The resolver of each policy whose credential names one, found with {@code loader}. */
  private static Map<String, KeyResolver> resolvers(
      Map<String, OutboundConfig> configs, ClassLoader loader) {
    KeyResolvers resolvers = KeyResolvers.services(loader);
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
    return resolverOf;
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
    return build(configs, store, true, recorder, resolvers, clock, sleeper, wall, random);
  }

  private static Outbound build(
      Collection<OutboundConfig> configs,
      RateLimitStore store,
      boolean ownsStore,
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
    return new Outbound(policies, store, ownsStore, overdue);
  }

  /**
   * The application's outbound policies, read at deployment and held by the CDI container ({@link
   * OutboundValidation}); no static field keeps them, so that every application has its own.
   *
   * @throws IllegalStateException saying what to do instead, when no CDI container runs here
   */
  public static Outbound shared() {
    CDI<Object> container;
    try {
      container = CDI.current();
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          "Outbound.shared() and new OutboundFilter() use the application's outbound policies, which a CDI container"
              + " holds, and none runs here: register new OutboundFilter(Outbound.fromConfig(...))"
              + " instead",
          e);
    }
    return container.select(OutboundValidation.class).get().outbound();
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

  /** Stops watching for overdue calls, and closes the store if it is this one's own. */
  @Override
  public void close() {
    overdue.close();
    if (ownsStore) {
      store.close();
    }
  }
}
