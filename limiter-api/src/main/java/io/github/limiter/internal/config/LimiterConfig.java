package io.github.limiter.internal.config;

import io.github.limiter.ConfigException;
import io.github.limiter.Policy;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.spi.ConfigLookup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The one configuration model, read from the one key scheme through a {@link ConfigLookup}, and
 * validated whole at start-up: a running request never parses configuration.
 *
 * <p>Each key is declared once, with its parser, default and documentation: a policy's in {@link
 * PolicySettings} (docs/configuration.md shows its table), the others in {@link CoreSettings}.
 * Store-specific keys (such as {@code limiter.redis.*}) are declared by their {@link
 * io.github.limiter.spi.StoreFactory}, another module's (such as {@code limiter.outbound.*}) by its
 * {@link SettingsSection}. An unknown key under {@code limiter.policy.NAME.}, {@code
 * limiter.route.NAME.} or another of the core's sections ({@link #CORE_SECTIONS}: {@code
 * limiter.http.}, {@code limiter.metrics.}, ...) is an error, so that a typo fails the deployment;
 * so is an unknown key directly under {@code limiter.} ({@code limiter.stor}), and an environment
 * variable under one of those sections ({@code LIMITER_POLICY_}, {@code LIMITER_TOP_KEYS_}, ...)
 * that is the form of no such key. {@link io.github.limiter.internal.store.Stores#check} does the
 * same for the stores' sections.
 *
 * <p>Every problem is reported at once: {@link #from} throws one {@link ConfigException} for all.
 *
 * @param store the name of the store
 * @param policies the policies by name, in name order
 * @param routes the routes, in name order
 * @param http the HTTP rendering and client-address settings
 * @param events the settings of adapters that fire events
 * @param metrics which metrics backends may record
 * @param topKeys whether and how the admission step counts each policy's top keys
 */
public record LimiterConfig(
    String store,
    Map<String, PolicyConfig> policies,
    List<Route> routes,
    HttpSettings http,
    EventSettings events,
    MetricsSettings metrics,
    TopKeysSettings topKeys) {

  public static final String PREFIX = "limiter.";
  public static final String POLICY_PREFIX = "limiter.policy.";
  public static final String ROUTE_PREFIX = "limiter.route.";
  public static final String HTTP_PREFIX = "limiter.http.";
  public static final String EVENTS_PREFIX = "limiter.events.";
  public static final String METRICS_PREFIX = "limiter.metrics.";
  public static final String TOP_KEYS_PREFIX = "limiter.top-keys.";
  public static final String CONFIG_PREFIX = "limiter.config.";
  public static final String ADMIN_PREFIX = "limiter.admin.";

  /**
   * The sections of {@code limiter.<section>.*} that are the core's; any other is a module's own
   * ({@link SettingsSection}) or a store's.
   */
  public static final List<String> CORE_SECTIONS =
      List.of("policy", "route", "http", "events", "metrics", "top-keys", "config", "admin");

  public static final String STORE_KEY = "limiter.store";

  /** What joins a policy's name and a plan's in the plan's keys and in its policy's name. */
  public static final String PLAN_SEGMENT = ".plan.";

  /** Names policies whose keys are found only by looking them up, as in environment variables. */
  public static final String POLICIES_KEY = "limiter.policies";

  /** Names routes likewise. */
  public static final String ROUTES_KEY = "limiter.routes";

  /**
   * Names the policies of limiter-outbound's section, {@code limiter.outbound.NAME.*}, whose keys
   * are found only by looking them up, as in environment variables: a top-level key, like {@link
   * #POLICIES_KEY}.
   */
  public static final String OUTBOUNDS_KEY = "limiter.outbounds";

  private static final Set<String> ROUTE_KEYS = Setting.names(CoreSettings.ROUTE);

  public LimiterConfig {
    policies = Collections.unmodifiableMap(new LinkedHashMap<>(policies));
    routes = List.copyOf(routes);
    Objects.requireNonNull(http, "http");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(topKeys, "topKeys");
  }

  /** A configuration without top keys. */
  public LimiterConfig(
      String store,
      Map<String, PolicyConfig> policies,
      List<Route> routes,
      HttpSettings http,
      EventSettings events,
      MetricsSettings metrics) {
    this(store, policies, routes, http, events, metrics, TopKeysSettings.DEFAULTS);
  }

  /** A configuration with the default metrics settings. */
  public LimiterConfig(
      String store,
      Map<String, PolicyConfig> policies,
      List<Route> routes,
      HttpSettings http,
      EventSettings events) {
    this(store, policies, routes, http, events, MetricsSettings.DEFAULTS);
  }

  /** A configuration with the default event and metrics settings. */
  public LimiterConfig(
      String store, Map<String, PolicyConfig> policies, List<Route> routes, HttpSettings http) {
    this(store, policies, routes, http, EventSettings.DEFAULTS);
  }

  /**
   * How often {@code limiter.config.refresh} asks to re-read the policies' limits; empty when off.
   *
   * @throws ConfigException naming the key and its bad value
   */
  public static Optional<Duration> refreshPeriod(ConfigLookup config) {
    List<ConfigException> problems = new ArrayList<>();
    SettingValues values =
        SettingValues.read(new ConfigReader(config), CoreSettings.CONFIG, problems);
    if (!problems.isEmpty()) {
      throw ConfigException.all(problems);
    }
    return Optional.ofNullable(values.get(CoreSettings.CONFIG_REFRESH));
  }

  /** The policy called {@code name}, if configured. */
  public Optional<PolicyConfig> policy(String name) {
    return Optional.ofNullable(policies.get(name));
  }

  /**
   * Reads and validates the whole configuration.
   *
   * @throws ConfigException naming every bad key and its value, all at once
   */
  public static LimiterConfig from(ConfigLookup config) {
    List<ConfigException> problems = new ArrayList<>();
    LimiterConfig read = read(config, problems);
    if (!problems.isEmpty()) {
      throw ConfigException.all(problems);
    }
    return read;
  }

  /**
   * Reads the configuration and adds every problem to {@code problems}, for an adapter that reports
   * them together with its own. What was invalid is left out: a policy with a bad value, a route
   * with one, a bad setting is its default. Run nothing on it unless {@code problems} stayed empty.
   */
  public static LimiterConfig read(ConfigLookup config, List<ConfigException> problems) {
    ConfigReader reader = new ConfigReader(config);
    collect(problems, () -> reader.checkTopLevel(PREFIX, Setting.names(CoreSettings.TOP)));
    // Found by their keys' names, or listed: environment variables cannot be listed by key name.
    ConfigReader.Names declared = reader.names(POLICY_PREFIX, PolicySettings.NAMES, problems);
    Set<String> policyNames = new TreeSet<>(declared.all());
    policyNames.addAll(listed(reader, POLICIES_KEY, "policy", problems));
    Map<String, Set<String>> plans = plans(reader, policyNames, problems);
    ConfigReader.Names routeKeys = reader.names(ROUTE_PREFIX, ROUTE_KEYS, problems);
    Set<String> routeNames = new TreeSet<>(routeKeys.all());
    routeNames.addAll(
        collect(
            problems,
            () ->
                reader.listedNames(
                    ROUTES_KEY,
                    name -> name.matches("[A-Za-z0-9._-]+"),
                    "route names (letters, digits, '.', '_' or '-')"),
            Set.of()));
    checkEnvironment(reader, policyNames, plans, routeNames, problems);
    Map<String, PolicyConfig> policies = new LinkedHashMap<>();
    for (String name : policyNames) {
      PolicyConfig policy =
          PolicyReader.read(
              reader,
              name,
              plans.getOrDefault(name, Set.of()),
              declared.withUnknownKeys().contains(name),
              problems);
      if (policy != null) {
        policies.put(name, policy);
      }
    }
    List<Route> routes = new ArrayList<>();
    for (String name : routeNames) {
      if (routeKeys.withUnknownKeys().contains(name)) {
        continue; // its unknown key is its one problem until it is fixed
      }
      // Checked against every declared policy: one with a bad value is reported once, on its own.
      Route route = collect(problems, () -> route(reader, name, policyNames), null);
      if (route != null) {
        routes.add(route);
      }
    }
    checkKeys(reader, HTTP_PREFIX, CoreSettings.HTTP, problems);
    checkKeys(reader, EVENTS_PREFIX, CoreSettings.EVENTS, problems);
    checkKeys(reader, METRICS_PREFIX, CoreSettings.METRICS, problems);
    checkKeys(reader, TOP_KEYS_PREFIX, CoreSettings.TOP_KEYS, problems);
    checkKeys(reader, CONFIG_PREFIX, CoreSettings.CONFIG, problems);
    SettingValues.read(reader, CoreSettings.CONFIG, problems);
    checkKeys(reader, ADMIN_PREFIX, CoreSettings.ADMIN, problems);
    collect(problems, () -> AdminSettings.read(reader), null);
    return new LimiterConfig(
        reader.text(STORE_KEY).orElse(CoreSettings.STORE.fallback()),
        policies,
        routes,
        http(SettingValues.read(reader, CoreSettings.HTTP, problems)),
        new EventSettings(
            SettingValues.read(reader, CoreSettings.EVENTS, problems).get(CoreSettings.NEAR_LIMIT)),
        metrics(SettingValues.read(reader, CoreSettings.METRICS, problems)),
        topKeys(SettingValues.read(reader, CoreSettings.TOP_KEYS, problems)));
  }

  /** The names listed in {@code key}, each a valid name of a {@code what}. */
  private static Set<String> listed(
      ConfigReader reader, String key, String what, List<ConfigException> problems) {
    return collect(
        problems,
        () ->
            reader.listedNames(
                key,
                Policy::isValidName,
                what
                    + " names (1-64 letters, digits, '.', '_' or '-', starting with a letter or"
                    + " digit)"),
        Set.of());
  }

  /**
   * The plans of each policy, taken out of {@code policyNames}: {@code
   * limiter.policy.api.plan.pro.limits} reads as policy "api.plan.pro", a plan of policy api. Plans
   * set only in environment variables are listed, as policies are.
   */
  private static Map<String, Set<String>> plans(
      ConfigReader reader, Set<String> policyNames, List<ConfigException> problems) {
    Map<String, Set<String>> plans = new TreeMap<>();
    for (String name : List.copyOf(policyNames)) {
      int at = name.lastIndexOf(PLAN_SEGMENT);
      if (at > 0 && policyNames.contains(name.substring(0, at))) {
        plans
            .computeIfAbsent(name.substring(0, at), n -> new TreeSet<>())
            .add(name.substring(at + PLAN_SEGMENT.length()));
        policyNames.remove(name);
      }
    }
    for (String name : policyNames) {
      String key = POLICY_PREFIX + name + "." + PolicySettings.PLANS.name();
      Set<String> listed = listed(reader, key, "plan", problems);
      if (!listed.isEmpty()) {
        plans.computeIfAbsent(name, n -> new TreeSet<>()).addAll(listed);
      }
    }
    return plans;
  }

  /** Checks that every environment variable of the core's sections is the form of a known key. */
  private static void checkEnvironment(
      ConfigReader reader,
      Set<String> policyNames,
      Map<String, Set<String>> plans,
      Set<String> routeNames,
      List<ConfigException> problems) {
    collect(
        problems,
        () ->
            reader.checkEnvironmentForms(
                POLICY_PREFIX,
                planKeys(keys(POLICY_PREFIX, policyNames, PolicySettings.NAMES), plans),
                "a policy known by a limiter.policy.NAME.* key or listed in " + POLICIES_KEY));
    collect(
        problems,
        () ->
            reader.checkEnvironmentForms(
                ROUTE_PREFIX,
                keys(ROUTE_PREFIX, routeNames, ROUTE_KEYS),
                "a route known by a limiter.route.NAME.* key or listed in " + ROUTES_KEY));
    checkSectionForms(reader, HTTP_PREFIX, CoreSettings.HTTP, problems);
    checkSectionForms(reader, EVENTS_PREFIX, CoreSettings.EVENTS, problems);
    checkSectionForms(reader, METRICS_PREFIX, CoreSettings.METRICS, problems);
    checkSectionForms(reader, TOP_KEYS_PREFIX, CoreSettings.TOP_KEYS, problems);
    checkSectionForms(reader, CONFIG_PREFIX, CoreSettings.CONFIG, problems);
    checkSectionForms(reader, ADMIN_PREFIX, CoreSettings.ADMIN, problems);
  }

  private static void checkSectionForms(
      ConfigReader reader,
      String prefix,
      List<Setting<?>> settings,
      List<ConfigException> problems) {
    List<String> keys = settings.stream().map(Setting::name).toList();
    Set<String> names = CoreSettings.names(prefix, settings);
    collect(
        problems,
        () ->
            reader.checkEnvironmentForms(
                prefix, keys, "one of " + (names.size() > 1 ? new TreeSet<>(names) : names)));
  }

  /** Checks that every key of a section such as {@code limiter.http.} is one of its settings. */
  private static void checkKeys(
      ConfigReader reader,
      String prefix,
      List<Setting<?>> settings,
      List<ConfigException> problems) {
    collect(problems, () -> reader.checkKeys(prefix, CoreSettings.names(prefix, settings)));
  }

  private static HttpSettings http(SettingValues values) {
    return new HttpSettings(
        values.get(CoreSettings.REJECTION_STATUS).intValue(),
        values.get(CoreSettings.UNAVAILABLE_STATUS).intValue(),
        values.get(CoreSettings.HEADERS),
        values.get(CoreSettings.LEGACY_HEADERS),
        values.get(CoreSettings.TRUSTED_PROXIES),
        values.get(CoreSettings.IPV6_PREFIX).intValue(),
        values.get(CoreSettings.FORWARDED_HEADER));
  }

  private static MetricsSettings metrics(SettingValues values) {
    return new MetricsSettings(
        values.get(CoreSettings.METRICS_ENABLED),
        values.get(CoreSettings.MICROPROFILE_ENABLED),
        values.get(CoreSettings.OPENTELEMETRY_ENABLED),
        values.get(CoreSettings.MICROMETER_ENABLED));
  }

  private static TopKeysSettings topKeys(SettingValues values) {
    return new TopKeysSettings(
        values.get(CoreSettings.TOP_KEYS_ENABLED),
        values.get(CoreSettings.TOP_KEYS_SIZE).intValue(),
        values.get(CoreSettings.TOP_KEYS_WINDOW));
  }

  private static Route route(ConfigReader reader, String name, Set<String> policies) {
    String base = ROUTE_PREFIX + name + ".";
    String pattern =
        reader.get(base + CoreSettings.ROUTE_PATTERN.name(), CoreSettings.ROUTE_PATTERN);
    Set<String> methods =
        reader.get(base + CoreSettings.ROUTE_METHODS.name(), CoreSettings.ROUTE_METHODS);
    String key = base + CoreSettings.ROUTE_POLICIES.name();
    List<String> names = reader.get(key, CoreSettings.ROUTE_POLICIES);
    if (names.size() != new HashSet<>(names).size()) {
      throw new ConfigException(
          key,
          "names a policy twice, which would charge it twice, was '"
              + reader.text(key).orElseThrow()
              + "'");
    }
    for (String policy : names) {
      if (!policies.contains(policy)) {
        throw new ConfigException(
            key,
            "no policy named '"
                + policy
                + "'; configured policies are "
                + policies
                + Suggestion.hint(policy, policies));
      }
    }
    Criticality criticality =
        reader.get(base + CoreSettings.ROUTE_CRITICALITY.name(), CoreSettings.ROUTE_CRITICALITY);
    return new Route(name, pattern, methods, names, criticality);
  }

  /**
   * The value of {@code step}, or {@code fallback} after adding its problems to {@code problems}.
   */
  private static <T> T collect(List<ConfigException> problems, Supplier<T> step, T fallback) {
    try {
      return step.get();
    } catch (ConfigException e) {
      problems.add(e);
      return fallback;
    }
  }

  private static void collect(List<ConfigException> problems, Runnable check) {
    collect(
        problems,
        () -> {
          check.run();
          return null;
        },
        null);
  }

  /** Every {@code prefix + name + "." + key}. */
  private static List<String> keys(String prefix, Set<String> names, Collection<String> keys) {
    List<String> all = new ArrayList<>();
    names.forEach(name -> keys.forEach(key -> all.add(prefix + name + "." + key)));
    return all;
  }

  /** {@code keys} and the limits key of every plan. */
  private static List<String> planKeys(List<String> keys, Map<String, Set<String>> plans) {
    List<String> all = new ArrayList<>(keys);
    plans.forEach(
        (policy, names) ->
            names.forEach(
                plan -> all.add(POLICY_PREFIX + policy + PLAN_SEGMENT + plan + ".limits")));
    return all;
  }
}
