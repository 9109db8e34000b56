package io.github.limiter.internal.runtime;

import io.github.limiter.ConfigException;
import io.github.limiter.FailureMode;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.admission.AdaptiveGates;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.AdmissionMetrics;
import io.github.limiter.internal.admission.AdmissionObserver;
import io.github.limiter.internal.admission.HeaderWriter;
import io.github.limiter.internal.admission.NearLimit;
import io.github.limiter.internal.admission.PolicySet;
import io.github.limiter.internal.admission.Rule;
import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.SettingsSection;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.insight.Insight;
import io.github.limiter.internal.live.ConfigRefresh;
import io.github.limiter.internal.live.LiveLimits;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.RecorderFactory;
import io.github.limiter.internal.metrics.StoreGauges;
import io.github.limiter.internal.store.Stores;
import io.github.limiter.spi.ConfigLookup;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What one application decides with, built once from its configuration: the store, the metrics
 * recorder, the policies' live limits (versions, overrides, and their sync through the store), the
 * insight (top keys, shadow trials), one adaptive gate per policy, the config refresh, the
 * readiness of the store, the policies of other modules' sections ({@link SettingsSection}: the
 * outbound ones), and the parts that other modules add. Every adapter receives it, none builds its
 * own: the filter, {@code @Limited}, outbound and the admin API. With CDI it is a bean of the
 * application; without, the filter keeps it in the {@code ServletContext} under {@link #ATTRIBUTE}.
 * So a policy is one budget per key, whichever adapter counts it.
 */
public final class LimiterRuntime implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(LimiterRuntime.class.getName());

  /** The servlet-context attribute under which an application without CDI keeps its runtime. */
  public static final String ATTRIBUTE = LimiterRuntime.class.getName();

  /**
   * What the readiness check reads of the store.
   *
   * @param name the store's name, as {@code limiter.store} says
   * @param store the store
   * @param failClosed the policies that reject while the store cannot decide ({@code
   *     failure=fail-closed}): while it is down, the application is not ready for them
   * @param sections the names of the policies of each module's section that has any ({@code
   *     outbound}), by section
   */
  public record Readiness(
      String name,
      RateLimitStore store,
      Set<String> failClosed,
      Map<String, Set<String>> sections) {
    public Readiness {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(store, "store");
      failClosed = Collections.unmodifiableSortedSet(new TreeSet<>(failClosed));
      Map<String, Set<String>> copy = new TreeMap<>();
      sections.forEach(
          (section, names) -> {
            if (!names.isEmpty()) {
              copy.put(section, Collections.unmodifiableSortedSet(new TreeSet<>(names)));
            }
          });
      sections = Collections.unmodifiableMap(copy);
    }

    /**
     * The readiness of {@code store}, named {@code name}, for the policies of {@code config} and
     * those of the modules' {@code sections}.
     */
    public static Readiness of(
        String name,
        RateLimitStore store,
        LimiterConfig config,
        Map<String, List<Policy>> sections) {
      Set<String> failClosed = new TreeSet<>();
      for (PolicyConfig policy : config.policies().values()) {
        if (policy.policy().failureMode() == FailureMode.FAIL_CLOSED) {
          failClosed.add(policy.name());
        }
      }
      Map<String, Set<String>> names = new TreeMap<>();
      sections.forEach(
          (section, policies) -> {
            for (Policy policy : policies) {
              names.computeIfAbsent(section, s -> new TreeSet<>()).add(policy.name());
              if (policy.failureMode() == FailureMode.FAIL_CLOSED) {
                failClosed.add(policy.name());
              }
            }
          });
      return new Readiness(name, store, failClosed, names);
    }
  }

  private final LimiterConfig config;
  private final ConfigLookup lookup;
  private final ClassLoader loader;
  private final RateLimitStore store;
  private final boolean ownsStore;
  private final Recorder recorder;
  private final AdmissionMetrics metrics;
  private final ClientAddress addresses;
  private final Insight insight;
  private final LiveLimits live;
  private final AdaptiveGates gates;
  private final ConfigRefresh refresh;
  private final Map<Class<?>, AutoCloseable> parts = new ConcurrentHashMap<>();

  /**
   * The policies of the modules' sections (the outbound ones), by section, which decide in this
   * store too.
   */
  private final Map<String, List<Policy>> sections;

  private LimiterRuntime(
      LimiterConfig config,
      ConfigLookup lookup,
      ClassLoader loader,
      RateLimitStore store,
      boolean ownsStore,
      Recorder recorder,
      NanoClock clock,
      List<SettingsSection> found,
      Map<String, List<Policy>> sections) {
    this.config = Objects.requireNonNull(config, "config");
    this.lookup = lookup;
    this.loader = loader;
    this.store = Objects.requireNonNull(store, "store");
    this.ownsStore = ownsStore;
    this.sections = Map.copyOf(sections);
    this.recorder = Objects.requireNonNull(recorder, "recorder");
    this.metrics =
        AdmissionMetrics.of(recorder, config.store(), new NearLimit(config.events().nearLimit()));
    this.addresses = new ClientAddress(config.http());
    this.insight = new Insight(config.topKeys(), clock);
    this.gates = new AdaptiveGates(clock, gate -> recorder.watch(gate.gauges()));
    recorder.watch(StoreGauges.of(config.store(), store));
    this.live = LiveLimits.open(store).inCalendarsOf(config);
    this.refresh =
        lookup == null
            ? null
            : LimiterConfig.refreshPeriod(lookup)
                .map(
                    period ->
                        ConfigRefresh.start(
                            live.policies(),
                            configured(config, sections),
                            () -> {
                              LimiterConfig read = LimiterConfig.from(lookup);
                              return configured(read, sections(read, lookup, found));
                            },
                            period))
                .orElse(null);
  }

  /**
   * The configured policies by name, inbound and the sections': what {@code limiter.config.refresh}
   * compares with the live ones.
   */
  static Map<String, Policy> configured(LimiterConfig config, Map<String, List<Policy>> sections) {
    Map<String, Policy> policies = new HashMap<>(ConfigRefresh.policies(config));
    sections.values().forEach(each -> each.forEach(p -> policies.put(p.name(), p)));
    return policies;
  }

  /**
   * The policies that {@code lookup} configures in each of the {@code found} sections that has any,
   * by section; none for a preset configuration (null).
   *
   * @throws ConfigException naming a bad value, or a section's policy named like an inbound one
   */
  static Map<String, List<Policy>> sections(
      LimiterConfig config, ConfigLookup lookup, List<SettingsSection> found) {
    Map<String, List<Policy>> sections = new TreeMap<>();
    if (lookup == null) {
      return sections;
    }
    for (SettingsSection section : found) {
      List<Policy> policies = List.copyOf(section.policies(lookup));
      for (Policy policy : policies) {
        if (config.policies().containsKey(policy.name())) {
          throw new ConfigException(
              LimiterConfig.PREFIX + section.name() + "." + policy.name() + ".limits",
              "an "
                  + section.name()
                  + " policy is named like the inbound policy "
                  + LimiterConfig.POLICY_PREFIX
                  + policy.name()
                  + ", and one application's policies have one name each, was '"
                  + policy.name()
                  + "'");
        }
      }
      if (!policies.isEmpty()) {
        sections.put(section.name(), policies);
      }
    }
    return sections;
  }

  /**
   * The runtime of {@code config} over the store it names, which it opens (last, so that a bad
   * configuration leaves nothing to close) and closes; {@code lookup} holds the store's own keys
   * and is read again by {@code limiter.config.refresh}.
   */
  public static LimiterRuntime open(LimiterConfig config, ConfigLookup lookup, ClassLoader loader) {
    List<SettingsSection> found = SettingsSection.load(loader);
    Map<String, List<Policy>> sections = sections(config, lookup, found);
    Recorder recorder = RecorderFactory.load(config.metrics(), loader);
    return new LimiterRuntime(
        config,
        lookup,
        loader,
        Stores.create(config, lookup, loader),
        true,
        recorder,
        NanoClock.system(),
        found,
        sections);
  }

  /**
   * The runtime of {@code config} over {@code store}, which stays its creator's to close; without a
   * {@code lookup} (null) the configuration is never read again.
   */
  public static LimiterRuntime over(
      RateLimitStore store, LimiterConfig config, ConfigLookup lookup, ClassLoader loader) {
    return over(store, config, lookup, loader, RecorderFactory.load(config.metrics(), loader));
  }

  /**
   * As {@link #over(RateLimitStore, LimiterConfig, ConfigLookup, ClassLoader)}, reporting to {@code
   * recorder}.
   */
  public static LimiterRuntime over(
      RateLimitStore store,
      LimiterConfig config,
      ConfigLookup lookup,
      ClassLoader loader,
      Recorder recorder) {
    return over(store, config, lookup, loader, recorder, SettingsSection.load(loader));
  }

  /** As {@link #over}, with the modules' sections {@code found}. */
  static LimiterRuntime over(
      RateLimitStore store,
      LimiterConfig config,
      ConfigLookup lookup,
      ClassLoader loader,
      Recorder recorder,
      List<SettingsSection> found) {
    return new LimiterRuntime(
        config,
        lookup,
        loader,
        store,
        false,
        recorder,
        NanoClock.system(),
        found,
        sections(config, lookup, found));
  }

  /**
   * An admission step of an adapter over this runtime's metrics, insight and client addresses: see
   * {@link Admission} for what the flags mean.
   */
  public Admission admission(
      boolean keyErrorsMeanNoKey,
      boolean skipsChargedPolicies,
      AdmissionObserver observer,
      HeaderWriter headers) {
    return new Admission(
        addresses, keyErrorsMeanNoKey, skipsChargedPolicies, observer, metrics, headers, insight);
  }

  /** The policies of one place (a route, a method), bound through the live limits. */
  public PolicySet policySet(List<Rule> rules, Criticality criticality) {
    return PolicySet.of(rules, live.store()::limiter, criticality);
  }

  /** One adaptive gate per policy, whichever adapter applies it. */
  public AdaptiveGates gates() {
    return gates;
  }

  /**
   * This runtime's part of {@code type}, created by {@code create} on first use and closed with the
   * runtime: how a module adds what it owns (the outbound policies) without a field here.
   */
  public <T extends AutoCloseable> T part(Class<T> type, Function<LimiterRuntime, T> create) {
    return type.cast(parts.computeIfAbsent(type, t -> create.apply(this)));
  }

  public LimiterConfig config() {
    return config;
  }

  /** Where the configuration was read, for a module's own keys; null for a preset configuration. */
  public ConfigLookup lookup() {
    return lookup;
  }

  public ClassLoader loader() {
    return loader;
  }

  public RateLimitStore store() {
    return store;
  }

  public Recorder recorder() {
    return recorder;
  }

  /**
   * The policies of the modules' sections, by section ({@code outbound}), read and checked once; a
   * section re-reads its own settings of them from {@link #lookup()}.
   */
  public Map<String, List<Policy>> sections() {
    return sections;
  }

  public LiveLimits live() {
    return live;
  }

  public Insight insight() {
    return insight;
  }

  /** The store as the readiness check sees it. */
  public Readiness readiness() {
    return Readiness.of(config.store(), store, config, sections);
  }

  /**
   * Stops the refresh and the live limits' sync, closes the parts, and the store if it opened it.
   */
  @Override
  public void close() {
    List<AutoCloseable> opened = new ArrayList<>(parts.values());
    parts.clear();
    for (AutoCloseable part : opened) {
      try {
        part.close();
      } catch (Exception e) {
        // One part that cannot close leaves the others to close.
        LOG.log(Level.WARNING, "limiter: cannot close " + part, e);
      }
    }
    if (refresh != null) {
      refresh.close();
    }
    live.close();
    if (ownsStore) {
      store.close();
    }
  }
}
