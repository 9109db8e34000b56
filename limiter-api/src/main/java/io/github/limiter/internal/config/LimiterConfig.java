package io.github.limiter.internal.config;

import io.github.limiter.Algorithm;
import io.github.limiter.ConfigException;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.PolicyConfig.MissingKey;
import io.github.limiter.internal.config.PolicyConfig.Shaping;
import io.github.limiter.internal.http.Cidr;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.spi.ConfigLookup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 * <h2>Keys</h2>
 *
 * <pre>
 * limiter.store                          memory | redis | a custom StoreFactory name   (memory)
 * limiter.memory.max-keys                int                                           (100000)
 * limiter.memory.overflow                evict | reject-new-keys                       (evict)
 * limiter.policies                       names of policies set only in environment variables (none)
 * limiter.routes                         names of routes set only in environment variables   (none)
 * limiter.policy.NAME.algorithm          fixed-window | sliding-window-counter | sliding-window-log
 *                                        | token-bucket | leaky-bucket | concurrency   (required)
 * limiter.policy.NAME.limits             e.g. 10/s burst=20, 1000/h; for concurrency the most
 *                                        requests in flight per key, e.g. 4           (required)
 * limiter.policy.NAME.retry-after        duration, concurrency only: a rejection's Retry-After (1s)
 * limiter.policy.NAME.key                remote-address | header:NAME | principal | constant
 *                                        | resolver:NAME                               (remote-address)
 * limiter.policy.NAME.on-missing-key     remote-address | reject | allow               (remote-address)
 * limiter.policy.NAME.permits            cost of one request                           (1)
 * limiter.policy.NAME.cost               header:NAME | resolver:NAME: a request's cost at run time,
 *                                        a decimal number; missing or malformed: permits (permits)
 * limiter.policy.NAME.max-cost           int, the most one request is charged          (no cap)
 * limiter.policy.NAME.count              all | status:401,403: which requests count; the others
 *                                        are refunded when they end (filter only)      (all)
 * limiter.policy.NAME.plan.PLAN.limits   the limits of plan PLAN; the rest is the policy's (none)
 * limiter.policy.NAME.plans              names of plans set only in environment variables  (none)
 * limiter.policy.NAME.plan-source        role:R1,R2 | resolver:NAME | header:NAME, where a request's
 *                                        plan comes from; required with plans          (none)
 * limiter.policy.NAME.on-unknown-plan    default | reject: a plan that is not configured (default)
 * limiter.policy.NAME.failure            fail-open | fail-closed | local               (local)
 * limiter.policy.NAME.dry-run            boolean                                       (false)
 * limiter.policy.NAME.nodelay            boolean, leaky-bucket only                    (false)
 * limiter.policy.NAME.max-delay          duration, leaky-bucket only                   (30s)
 * limiter.policy.NAME.delay-after        int, leaky-bucket only (nginx delay=N)        (0)
 * limiter.policy.NAME.lease              on | off: lease mode, token-bucket and fixed-window only,
 *                                        for a shared store (redis)                    (off)
 * limiter.policy.NAME.lease-refresh      duration a slice should last at the node's rate (200ms)
 * limiter.policy.NAME.lease-ttl          duration a slice may be spent, at least lease-refresh (2s)
 * limiter.policy.NAME.lease-max-slice    int, the largest slice                        (no cap)
 * limiter.policy.NAME.lease-low-water    fraction of the last slice that starts the next fetch
 *                                        (0.25)
 * limiter.route.NAME.pattern             servlet URL pattern, e.g. /api/*              (required)
 * limiter.route.NAME.methods             e.g. GET,POST                                 (all)
 * limiter.route.NAME.policies            e.g. api,burst                                (required)
 * limiter.http.rejection-status          int                                           (429)
 * limiter.http.unavailable-status        int                                           (503)
 * limiter.http.headers                   boolean: RateLimit, RateLimit-Policy          (true)
 * limiter.http.legacy-headers            boolean: X-RateLimit-*                        (false)
 * limiter.http.trusted-proxies           CIDR list, e.g. 10.0.0.0/8, ::1/128           (none)
 * limiter.http.ipv6-prefix               int                                           (64)
 * limiter.http.forwarded-header          x-forwarded-for | forwarded (RFC 7239)        (x-forwarded-for)
 * limiter.events.near-limit              fraction of the quota left, above 0, at most 1 (0.1)
 * limiter.metrics.enabled                boolean: record on any metrics backend         (true)
 * limiter.metrics.microprofile.enabled   boolean: on MicroProfile Metrics, if present   (true)
 * limiter.metrics.opentelemetry.enabled  boolean: on OpenTelemetry, if present          (true)
 * limiter.metrics.micrometer.enabled     boolean: on Micrometer, if present             (true)
 * </pre>
 *
 * Store-specific keys (such as {@code limiter.redis.*}) belong to their {@link
 * io.github.limiter.spi.StoreFactory}. An unknown key under {@code limiter.policy.NAME.}, {@code
 * limiter.route.NAME.}, {@code limiter.http.}, {@code limiter.events.} or {@code limiter.metrics.}
 * is an error, so that a typo fails the deployment; so is an unknown key directly under {@code
 * limiter.} ({@code limiter.stor}), and an environment variable under {@code LIMITER_POLICY_},
 * {@code LIMITER_ROUTE_}, {@code LIMITER_HTTP_}, {@code LIMITER_EVENTS_} or {@code
 * LIMITER_METRICS_} that is the form of no such key. {@link
 * io.github.limiter.internal.store.Stores#check} does the same for the stores' sections.
 *
 * <p>Every problem is reported at once: {@link #from} throws one {@link ConfigException} for all.
 *
 * @param store the name of the store
 * @param policies the policies by name, in name order
 * @param routes the routes, in name order
 * @param http the HTTP rendering and client-address settings
 * @param events the settings of adapters that fire events
 * @param metrics which metrics backends may record
 */
public record LimiterConfig(
    String store,
    Map<String, PolicyConfig> policies,
    List<Route> routes,
    HttpSettings http,
    EventSettings events,
    MetricsSettings metrics) {

  public static final String PREFIX = "limiter.";
  public static final String POLICY_PREFIX = "limiter.policy.";
  public static final String ROUTE_PREFIX = "limiter.route.";
  public static final String HTTP_PREFIX = "limiter.http.";
  public static final String EVENTS_PREFIX = "limiter.events.";
  public static final String METRICS_PREFIX = "limiter.metrics.";

  /** The sections of {@code limiter.<section>.*} that are the core's; any other is a store's. */
  public static final List<String> CORE_SECTIONS =
      List.of("policy", "route", "http", "events", "metrics");

  public static final String STORE_KEY = "limiter.store";

  /** What joins a policy's name and a plan's in the plan's keys and in its policy's name. */
  public static final String PLAN_SEGMENT = ".plan.";

  /** Names policies whose keys are found only by looking them up, as in environment variables. */
  public static final String POLICIES_KEY = "limiter.policies";

  /** Names routes likewise. */
  public static final String ROUTES_KEY = "limiter.routes";

  private static final Set<String> POLICY_KEYS =
      Set.of(
          "algorithm",
          "limits",
          "key",
          "on-missing-key",
          "permits",
          "cost",
          "max-cost",
          "count",
          "plans",
          "plan-source",
          "on-unknown-plan",
          "failure",
          "dry-run",
          "nodelay",
          "max-delay",
          "delay-after",
          "lease",
          "lease-refresh",
          "lease-ttl",
          "lease-max-slice",
          "lease-low-water",
          "retry-after");
  private static final Set<String> ROUTE_KEYS = Set.of("pattern", "methods", "policies");
  private static final Set<String> HTTP_KEYS =
      Set.of(
          "rejection-status",
          "unavailable-status",
          "headers",
          "legacy-headers",
          "trusted-proxies",
          "ipv6-prefix",
          "forwarded-header");
  private static final Set<String> EVENTS_KEYS = Set.of("near-limit");
  private static final Set<String> METRICS_KEYS =
      Set.of("enabled", "microprofile.enabled", "opentelemetry.enabled", "micrometer.enabled");
  private static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(30);
  private static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
  private static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);
  private static final List<String> LEASE_TUNING =
      List.of("lease-refresh", "lease-ttl", "lease-max-slice", "lease-low-water");

  public LimiterConfig {
    policies = Collections.unmodifiableMap(new LinkedHashMap<>(policies));
    routes = List.copyOf(routes);
    Objects.requireNonNull(http, "http");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(metrics, "metrics");
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
    collect(
        problems, () -> reader.checkTopLevel(PREFIX, Set.of(STORE_KEY, POLICIES_KEY, ROUTES_KEY)));
    // Found by their keys' names, or listed: environment variables cannot be listed by key name.
    Set<String> policyNames =
        new TreeSet<>(collect(problems, () -> reader.names(POLICY_PREFIX, POLICY_KEYS), Set.of()));
    policyNames.addAll(
        collect(
            problems,
            () ->
                reader.listedNames(
                    POLICIES_KEY,
                    Policy::isValidName,
                    "policy names (1-64 letters, digits, '.', '_' or '-', starting with a letter or digit)"),
            Set.of()));
    // limiter.policy.api.plan.pro.limits reads as policy "api.plan.pro": a plan of policy api.
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
    // Plans set only in environment variables are listed, as policies are.
    for (String name : policyNames) {
      Set<String> listed =
          collect(
              problems,
              () ->
                  reader.listedNames(
                      POLICY_PREFIX + name + ".plans",
                      Policy::isValidName,
                      "plan names (1-64 letters, digits, '.', '_' or '-', starting with a letter or"
                          + " digit)"),
              Set.of());
      if (!listed.isEmpty()) {
        plans.computeIfAbsent(name, n -> new TreeSet<>()).addAll(listed);
      }
    }
    Set<String> routeNames =
        new TreeSet<>(collect(problems, () -> reader.names(ROUTE_PREFIX, ROUTE_KEYS), Set.of()));
    routeNames.addAll(
        collect(
            problems,
            () ->
                reader.listedNames(
                    ROUTES_KEY,
                    name -> name.matches("[A-Za-z0-9._-]+"),
                    "route names (letters, digits, '.', '_' or '-')"),
            Set.of()));
    collect(
        problems,
        () ->
            reader.checkEnvironmentForms(
                POLICY_PREFIX,
                planKeys(keys(POLICY_PREFIX, policyNames, POLICY_KEYS), plans),
                "a policy known by a limiter.policy.NAME.* key or listed in " + POLICIES_KEY));
    collect(
        problems,
        () ->
            reader.checkEnvironmentForms(
                ROUTE_PREFIX,
                keys(ROUTE_PREFIX, routeNames, ROUTE_KEYS),
                "a route known by a limiter.route.NAME.* key or listed in " + ROUTES_KEY));
    collect(
        problems,
        () ->
            reader.checkEnvironmentForms(
                HTTP_PREFIX, keys(HTTP_PREFIX, HTTP_KEYS), "one of " + new TreeSet<>(HTTP_KEYS)));
    collect(
        problems,
        () ->
            reader.checkEnvironmentForms(
                EVENTS_PREFIX, keys(EVENTS_PREFIX, EVENTS_KEYS), "one of " + EVENTS_KEYS));
    collect(
        problems,
        () ->
            reader.checkEnvironmentForms(
                METRICS_PREFIX,
                keys(METRICS_PREFIX, METRICS_KEYS),
                "one of " + new TreeSet<>(METRICS_KEYS)));
    Map<String, PolicyConfig> policies = new LinkedHashMap<>();
    for (String name : policyNames) {
      PolicyConfig policy = policy(reader, name, plans.getOrDefault(name, Set.of()), problems);
      if (policy != null) {
        policies.put(name, policy);
      }
    }
    List<Route> routes = new ArrayList<>();
    for (String name : routeNames) {
      // Checked against every declared policy: one with a bad value is reported once, on its own.
      Route route = collect(problems, () -> route(reader, name, policyNames), null);
      if (route != null) {
        routes.add(route);
      }
    }
    collect(problems, () -> reader.checkKeys(HTTP_PREFIX, HTTP_KEYS));
    collect(problems, () -> reader.checkKeys(EVENTS_PREFIX, EVENTS_KEYS));
    collect(problems, () -> reader.checkKeys(METRICS_PREFIX, METRICS_KEYS));
    HttpSettings http = collect(problems, () -> http(reader), HttpSettings.DEFAULTS);
    EventSettings events =
        collect(
            problems,
            () ->
                new EventSettings(
                    reader.optional(
                        EVENTS_PREFIX + "near-limit",
                        EventSettings::parseFraction,
                        EventSettings.DEFAULTS.nearLimit())),
            EventSettings.DEFAULTS);
    MetricsSettings metrics = collect(problems, () -> metrics(reader), MetricsSettings.DEFAULTS);
    String store = reader.text(STORE_KEY).orElse("memory");
    return new LimiterConfig(store, policies, routes, http, events, metrics);
  }

  private static MetricsSettings metrics(ConfigReader reader) {
    return new MetricsSettings(
        reader.bool(METRICS_PREFIX + "enabled", true),
        reader.bool(METRICS_PREFIX + "microprofile.enabled", true),
        reader.bool(METRICS_PREFIX + "opentelemetry.enabled", true),
        reader.bool(METRICS_PREFIX + "micrometer.enabled", true));
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
  private static List<String> keys(String prefix, Set<String> names, Set<String> keys) {
    List<String> all = new ArrayList<>();
    names.forEach(name -> keys.forEach(key -> all.add(prefix + name + "." + key)));
    return all;
  }

  /** Every {@code prefix + key}. */
  private static List<String> keys(String prefix, Set<String> keys) {
    return keys.stream().map(key -> prefix + key).toList();
  }

  /** The policy called {@code name}; null after adding each of its problems to {@code problems}. */
  private static PolicyConfig policy(
      ConfigReader reader, String name, Set<String> planNames, List<ConfigException> problems) {
    String base = POLICY_PREFIX + name + ".";
    int before = problems.size();
    Algorithm algorithm =
        collect(
            problems,
            () ->
                reader.parse(
                    base + "algorithm",
                    reader.required(base + "algorithm"),
                    Algorithm::fromConfigName),
            null);
    Duration retryAfter = collect(problems, () -> retryAfter(reader, base, algorithm), null);
    PolicyConfig.PlanSource planSource =
        collect(
            problems,
            () -> reader.optional(base + "plan-source", PolicyConfig.PlanSource::parse, null),
            null);
    Boolean rejectUnknownPlan =
        collect(
            problems,
            () ->
                reader.optional(base + "on-unknown-plan", LimiterConfig::rejectUnknownPlan, false),
            null);
    Map<String, List<Limit>> planLimits = new TreeMap<>();
    for (String plan : planNames) {
      String planBase = base + "plan." + plan + ".";
      for (String key : POLICY_KEYS) {
        if (!key.equals("limits") && reader.text(planBase + key).isPresent()) {
          problems.add(
              new ConfigException(
                  planBase + key,
                  "a plan sets its limits only; every other setting is the policy's ("
                      + base
                      + key
                      + "), was '"
                      + reader.text(planBase + key).orElseThrow()
                      + "'"));
        }
      }
      List<Limit> limits =
          collect(
              problems,
              () ->
                  reader.parse(
                      planBase + "limits",
                      reader.required(planBase + "limits"),
                      text -> limits(text, algorithm, retryAfter)),
              null);
      if (limits != null) {
        planLimits.put(plan, limits);
      }
    }
    if (!planNames.isEmpty() && planSource == null && reader.text(base + "plan-source").isEmpty()) {
      problems.add(
          new ConfigException(
              base + "plan-source",
              "required with plans ("
                  + planNames
                  + "): role:<role>,<role>..., resolver:<name> or header:<name>"));
    }
    if (planNames.isEmpty() && planSource != null) {
      problems.add(
          new ConfigException(
              base + "plan-source",
              "names where a plan comes from, but the policy has no plan: set "
                  + base
                  + "plan.<plan>.limits, was '"
                  + planSource
                  + "'"));
    }
    List<Limit> limits =
        collect(
            problems,
            () ->
                reader.parse(
                    base + "limits",
                    reader.required(base + "limits"),
                    text -> limits(text, algorithm, retryAfter)),
            null);
    FailureMode failure =
        collect(
            problems,
            () -> reader.optional(base + "failure", FailureMode::fromConfigName, FailureMode.LOCAL),
            null);
    KeySource key =
        collect(
            problems,
            () -> reader.optional(base + "key", KeySource::parse, KeySource.REMOTE_ADDRESS),
            null);
    MissingKey onMissing =
        collect(
            problems,
            () ->
                reader.optional(
                    base + "on-missing-key", LimiterConfig::missingKey, MissingKey.REMOTE_ADDRESS),
            null);
    Long permits =
        collect(problems, () -> reader.integer(base + "permits", 1, 1, Long.MAX_VALUE), null);
    KeySource costSource =
        collect(
            problems,
            () -> reader.optional(base + "cost", PolicyConfig.Cost::parseSource, null),
            null);
    PolicyConfig.Count count =
        collect(
            problems,
            () ->
                reader.optional(base + "count", PolicyConfig.Count::parse, PolicyConfig.Count.ALL),
            null);
    if (algorithm == Algorithm.CONCURRENCY && count != null && !count.all()) {
      problems.add(
          new ConfigException(
              base + "count",
              "a concurrency permit is given back whenever its request ends, so there is nothing"
                  + " to count: only all applies, was '"
                  + reader.text(base + "count").orElse("")
                  + "'"));
    }
    Long maxCost =
        collect(
            problems,
            () -> reader.integer(base + "max-cost", Long.MAX_VALUE, 1, Long.MAX_VALUE),
            null);
    Boolean dryRun = collect(problems, () -> reader.bool(base + "dry-run", false), null);
    Shaping shaping =
        algorithm == null ? null : collect(problems, () -> shaping(reader, base, algorithm), null);
    PolicyConfig.Lease lease =
        algorithm == null ? null : lease(reader, base, algorithm, permits, problems);
    if (problems.size() > before) {
      return null;
    }
    return collect(
        problems,
        () -> {
          Policy policy;
          try {
            policy = new Policy(name, algorithm, limits, failure);
          } catch (IllegalArgumentException e) {
            // Policy's message already shows the offending limit.
            throw new ConfigException(base + "limits", e.getMessage(), e);
          }
          long capacity = capacity(algorithm, limits);
          if (permits > capacity) {
            throw new ConfigException(
                base + "permits",
                "a request would cost more than the smallest limit can ever"
                    + " admit ("
                    + capacity
                    + "), so every request would be rejected, was '"
                    + permits
                    + "'");
          }
          if (maxCost < permits) {
            throw new ConfigException(
                base + "max-cost",
                "below the policy's permits ("
                    + permits
                    + "), which a request without a cost is charged, was '"
                    + maxCost
                    + "'");
          }
          Map<String, Policy> plans = new LinkedHashMap<>();
          for (var plan : planLimits.entrySet()) {
            String planKey = base + "plan." + plan.getKey() + ".limits";
            Policy planPolicy;
            try {
              planPolicy =
                  new Policy(
                      name + PLAN_SEGMENT + plan.getKey(), algorithm, plan.getValue(), failure);
            } catch (IllegalArgumentException e) {
              throw new ConfigException(planKey, e.getMessage(), e);
            }
            if (permits > capacity(algorithm, plan.getValue())) {
              throw new ConfigException(
                  planKey,
                  "a request would cost more ("
                      + permits
                      + " permits) than the smallest limit can ever admit, was '"
                      + reader.text(planKey).orElse("")
                      + "'");
            }
            plans.put(plan.getKey(), planPolicy);
          }
          return new PolicyConfig(
              policy,
              key,
              onMissing,
              permits,
              dryRun,
              shaping,
              lease,
              // Above the capacity every cost is rejected alike: capping there keeps the stores'
              // arithmetic far from overflow.
              new PolicyConfig.Cost(costSource, Math.min(maxCost, capacity + 1)),
              count,
              plans.isEmpty()
                  ? PolicyConfig.Plans.NONE
                  : new PolicyConfig.Plans(plans, planSource, rejectUnknownPlan));
        },
        null);
  }

  /**
   * A concurrency policy's Retry-After hint ({@code retry-after}, default 1s); null for the other
   * algorithms, for which the key is an error.
   */
  private static Duration retryAfter(ConfigReader reader, String base, Algorithm algorithm) {
    String key = base + "retry-after";
    if (algorithm == null) {
      return null; // the algorithm's own problem is reported
    }
    if (algorithm != Algorithm.CONCURRENCY) {
      reader
          .text(key)
          .ifPresent(
              value -> {
                throw new ConfigException(
                    key,
                    "applies to concurrency only, not to " + algorithm + ", was '" + value + "'");
              });
      return null;
    }
    Duration value = reader.duration(key, DEFAULT_RETRY_AFTER);
    if (value.compareTo(Duration.ofMillis(1)) < 0 || value.compareTo(MAX_RETRY_AFTER) > 0) {
      throw new ConfigException(
          key, "expected a duration between 1ms and 1h, was '" + reader.text(key).orElse("") + "'");
    }
    return value;
  }

  /**
   * The limits of {@code text} under {@code algorithm}: for concurrency one whole number of
   * requests in flight, whose Retry-After is {@code retryAfter} (the default if that was bad); for
   * the others, rates and windows.
   */
  private static List<Limit> limits(String text, Algorithm algorithm, Duration retryAfter) {
    String trimmed = text.trim();
    boolean bare = trimmed.matches("\\d+");
    if (algorithm != Algorithm.CONCURRENCY && !(algorithm == null && bare)) {
      if (bare) {
        throw new IllegalArgumentException(
            "a bare number limits requests in flight, with algorithm=concurrency; "
                + algorithm
                + " limits are rates such as '10/s' or '10/s burst=20, 1000/h', was '"
                + trimmed
                + "'");
      }
      return Limit.parseAll(text);
    }
    long max = bare && trimmed.length() <= 7 ? Long.parseLong(trimmed) : -1;
    if (max < 1 || max > Policy.MAX_IN_FLIGHT) {
      throw new IllegalArgumentException(
          "a concurrency limit is the most requests in flight per key, a whole number from 1 to "
              + Policy.MAX_IN_FLIGHT
              + " such as 4, was '"
              + trimmed
              + "'");
    }
    return List.of(Limit.of(max, retryAfter != null ? retryAfter : DEFAULT_RETRY_AFTER));
  }

  private static Shaping shaping(ConfigReader reader, String base, Algorithm algorithm) {
    if (algorithm != Algorithm.LEAKY_BUCKET) {
      for (String key : List.of("nodelay", "max-delay", "delay-after")) {
        reader
            .text(base + key)
            .ifPresent(
                value -> {
                  throw new ConfigException(
                      base + key,
                      "applies to leaky-bucket only, not to "
                          + algorithm
                          + ", was '"
                          + value
                          + "'");
                });
      }
      return Shaping.NONE;
    }
    boolean nodelay = reader.bool(base + "nodelay", false);
    Duration maxDelay =
        reader.optional(base + "max-delay", Limit::parseDuration, DEFAULT_MAX_DELAY);
    long delayAfter = reader.integer(base + "delay-after", 0, 0, Integer.MAX_VALUE);
    return new Shaping(nodelay, maxDelay, delayAfter);
  }

  /**
   * Lease mode: {@code lease=on} and its tuning keys, which are errors without it; null after
   * adding every problem to {@code problems}.
   */
  private static PolicyConfig.Lease lease(
      ConfigReader reader,
      String base,
      Algorithm algorithm,
      Long permits,
      List<ConfigException> problems) {
    int before = problems.size();
    Boolean on =
        collect(problems, () -> reader.optional(base + "lease", LimiterConfig::onOff, false), null);
    if (on == null) {
      return null;
    }
    if (!on) {
      for (String key : LEASE_TUNING) {
        reader
            .text(base + key)
            .ifPresent(
                value ->
                    problems.add(
                        new ConfigException(
                            base + key,
                            "applies only with " + base + "lease=on, was '" + value + "'")));
      }
      return problems.size() > before ? null : PolicyConfig.Lease.OFF;
    }
    if (algorithm != Algorithm.TOKEN_BUCKET && algorithm != Algorithm.FIXED_WINDOW) {
      problems.add(
          new ConfigException(
              base + "lease",
              "lease mode is proven never to admit more than exact mode for token-bucket and"
                  + " fixed-window only, not for "
                  + algorithm
                  + ", was '"
                  + reader.text(base + "lease").orElse("")
                  + "'"));
      return null;
    }
    PolicyConfig.Lease d = PolicyConfig.Lease.OFF;
    Duration refresh =
        collect(
            problems,
            () -> {
              Duration value = reader.duration(base + "lease-refresh", d.refresh());
              if (value.compareTo(PolicyConfig.Lease.MIN_INTERVAL) < 0
                  || value.compareTo(PolicyConfig.Lease.MAX_TTL) > 0) {
                throw new ConfigException(
                    base + "lease-refresh",
                    "expected a duration between 10ms and 1h, was '"
                        + reader.text(base + "lease-refresh").orElse("")
                        + "'");
              }
              return value;
            },
            null);
    Duration ttl =
        collect(
            problems,
            () -> {
              Duration value = reader.duration(base + "lease-ttl", d.ttl());
              Duration least = refresh == null ? PolicyConfig.Lease.MIN_INTERVAL : refresh;
              if (value.compareTo(least) < 0 || value.compareTo(PolicyConfig.Lease.MAX_TTL) > 0) {
                throw new ConfigException(
                    base + "lease-ttl",
                    "expected a duration between "
                        + base
                        + "lease-refresh ("
                        + least.toMillis()
                        + "ms) and 1h, was '"
                        + reader.text(base + "lease-ttl").orElse(value.toMillis() + "ms")
                        + "'");
              }
              return value;
            },
            null);
    long least = permits == null ? 1 : permits;
    Long maxSlice =
        collect(
            problems,
            () -> {
              long value =
                  reader.integer(base + "lease-max-slice", d.maxSlice(), 1, Integer.MAX_VALUE);
              if (value < least) {
                throw new ConfigException(
                    base + "lease-max-slice",
                    "a slice smaller than one request's permits ("
                        + least
                        + ") could never admit it, was '"
                        + value
                        + "'");
              }
              return value;
            },
            null);
    Double lowWater =
        collect(
            problems,
            () -> reader.optional(base + "lease-low-water", LimiterConfig::lowWater, d.lowWater()),
            null);
    if (problems.size() > before) {
      return null;
    }
    return PolicyConfig.Lease.on(refresh, ttl, maxSlice, lowWater);
  }

  private static boolean onOff(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "on", "true" -> true;
      case "off", "false" -> false;
      default -> throw new IllegalArgumentException("expected on or off, was '" + value + "'");
    };
  }

  private static double lowWater(String value) {
    double fraction;
    try {
      fraction = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "expected a fraction of the last slice, at least 0 and below 1, such as 0.25, was '"
              + value
              + "'",
          e);
    }
    if (!(fraction >= 0 && fraction < 1)) {
      throw new IllegalArgumentException(
          "expected a fraction of the last slice, at least 0 and below 1, such as 0.25, was '"
              + value
              + "'");
    }
    return fraction;
  }

  private static Route route(ConfigReader reader, String name, Set<String> policies) {
    String base = ROUTE_PREFIX + name + ".";
    String pattern = reader.required(base + "pattern");
    if (!Route.isValidPattern(pattern)) {
      throw new ConfigException(
          base + "pattern",
          "expected a servlet URL pattern such as '/api/*', '/login' or '*.json', was '"
              + pattern
              + "'");
    }
    Set<String> methods = new TreeSet<>();
    for (String method : ConfigReader.list(reader.text(base + "methods").orElse(""))) {
      if (!method.matches("[A-Za-z]+")) {
        throw new ConfigException(
            base + "methods", "expected HTTP methods such as GET,POST, was '" + method + "'");
      }
      methods.add(method.toUpperCase(Locale.ROOT));
    }
    List<String> names = ConfigReader.list(reader.required(base + "policies"));
    if (names.size() != new HashSet<>(names).size()) {
      throw new ConfigException(
          base + "policies",
          "names a policy twice, which would charge it twice, was '"
              + reader.required(base + "policies")
              + "'");
    }
    for (String policy : names) {
      if (!policies.contains(policy)) {
        throw new ConfigException(
            base + "policies",
            "no policy named '" + policy + "'; configured policies are " + policies);
      }
    }
    return new Route(name, pattern, methods, names);
  }

  private static HttpSettings http(ConfigReader reader) {
    String base = HTTP_PREFIX;
    HttpSettings d = HttpSettings.DEFAULTS;
    int rejection = (int) reader.integer(base + "rejection-status", d.rejectionStatus(), 400, 599);
    int unavailable =
        (int) reader.integer(base + "unavailable-status", d.unavailableStatus(), 400, 599);
    boolean headers = reader.bool(base + "headers", d.headers());
    boolean legacy = reader.bool(base + "legacy-headers", d.legacyHeaders());
    List<String> proxies = ConfigReader.list(reader.text(base + "trusted-proxies").orElse(""));
    for (String proxy : proxies) {
      reader.parse(base + "trusted-proxies", proxy, Cidr::parse);
    }
    int ipv6Prefix = (int) reader.integer(base + "ipv6-prefix", d.ipv6Prefix(), 1, 128);
    HttpSettings.ForwardedHeader forwarded =
        reader.optional(
            base + "forwarded-header",
            HttpSettings.ForwardedHeader::fromConfigName,
            d.forwardedHeader());
    return new HttpSettings(
        rejection, unavailable, headers, legacy, proxies, ipv6Prefix, forwarded);
  }

  /** The most one request can ever be admitted for: the smallest limit's capacity. */
  private static long capacity(Algorithm algorithm, List<Limit> limits) {
    return limits.stream()
        .mapToLong(l -> algorithm.isBucket() ? l.burst() : l.permits())
        .min()
        .orElseThrow();
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

  private static boolean rejectUnknownPlan(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "default" -> false;
      case "reject" -> true;
      default ->
          throw new IllegalArgumentException("expected default or reject, was '" + value + "'");
    };
  }

  private static MissingKey missingKey(String value) {
    for (MissingKey option : MissingKey.values()) {
      if (option.configName().equals(value.toLowerCase(Locale.ROOT))) {
        return option;
      }
    }
    throw new IllegalArgumentException(
        "expected remote-address, reject or allow, was '" + value + "'");
  }
}
