package io.github.limiter.internal.config;

import static io.github.limiter.internal.config.PolicySettings.ADAPTIVE_CEILING;
import static io.github.limiter.internal.config.PolicySettings.ADAPTIVE_FLOOR;
import static io.github.limiter.internal.config.PolicySettings.ADAPTIVE_INITIAL;
import static io.github.limiter.internal.config.PolicySettings.ADAPTIVE_TOLERANCE;
import static io.github.limiter.internal.config.PolicySettings.ADAPTIVE_TUNING;
import static io.github.limiter.internal.config.PolicySettings.ALGORITHM;
import static io.github.limiter.internal.config.PolicySettings.COST;
import static io.github.limiter.internal.config.PolicySettings.COUNT;
import static io.github.limiter.internal.config.PolicySettings.CRITICALITY;
import static io.github.limiter.internal.config.PolicySettings.CRITICAL_SHARE;
import static io.github.limiter.internal.config.PolicySettings.DELAY_AFTER;
import static io.github.limiter.internal.config.PolicySettings.DRY_RUN;
import static io.github.limiter.internal.config.PolicySettings.FAILURE;
import static io.github.limiter.internal.config.PolicySettings.KEY;
import static io.github.limiter.internal.config.PolicySettings.LEASE;
import static io.github.limiter.internal.config.PolicySettings.LEASE_LOW_WATER;
import static io.github.limiter.internal.config.PolicySettings.LEASE_MAX_SLICE;
import static io.github.limiter.internal.config.PolicySettings.LEASE_REFRESH;
import static io.github.limiter.internal.config.PolicySettings.LEASE_TTL;
import static io.github.limiter.internal.config.PolicySettings.LEASE_TUNING;
import static io.github.limiter.internal.config.PolicySettings.LIMITS;
import static io.github.limiter.internal.config.PolicySettings.MAX_COST;
import static io.github.limiter.internal.config.PolicySettings.MAX_DELAY;
import static io.github.limiter.internal.config.PolicySettings.NODELAY;
import static io.github.limiter.internal.config.PolicySettings.ON_MISSING_KEY;
import static io.github.limiter.internal.config.PolicySettings.ON_UNKNOWN_PLAN;
import static io.github.limiter.internal.config.PolicySettings.PERMITS;
import static io.github.limiter.internal.config.PolicySettings.PLAN_LIMITS;
import static io.github.limiter.internal.config.PolicySettings.PLAN_SOURCE;
import static io.github.limiter.internal.config.PolicySettings.QUOTA_ANCHOR_DAY;
import static io.github.limiter.internal.config.PolicySettings.QUOTA_TIME_ZONE;
import static io.github.limiter.internal.config.PolicySettings.RETRY_AFTER;

import io.github.limiter.Algorithm;
import io.github.limiter.ConfigException;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.PolicyConfig.LeaseMode;
import io.github.limiter.internal.config.PolicyConfig.Shaping;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Reads one policy, {@code limiter.policy.NAME.*}: each key of {@link PolicySettings} that applies
 * to its algorithm, then the checks across keys. Every problem goes to the list given; a policy
 * with one is left out.
 */
final class PolicyReader {

  private static final KeySource CONSTANT_KEY = KeySource.parse("constant");

  private final ConfigReader reader;
  private final String name;
  private final String base;
  private final List<ConfigException> problems;
  private final Map<Setting<?>, Object> values = new HashMap<>();

  /** Whether the policy has a key that no setting has, which its reader reported. */
  private final boolean unknownKey;

  /** Whether a required key was left unset, unreported because of {@link #unknownKey}. */
  private boolean unset;

  private PolicyReader(
      ConfigReader reader, String name, boolean unknownKey, List<ConfigException> problems) {
    this.reader = reader;
    this.name = name;
    this.base = LimiterConfig.POLICY_PREFIX + name + ".";
    this.unknownKey = unknownKey;
    this.problems = problems;
  }

  /**
   * The policy called {@code name}; null after adding each of its problems to {@code problems}. A
   * policy with an {@code unknownKey} (reported already) is read all the same, but a required key
   * it leaves unset is not reported: the unknown key is most likely that one, misspelt.
   */
  static PolicyConfig read(
      ConfigReader reader,
      String name,
      Set<String> planNames,
      boolean unknownKey,
      List<ConfigException> problems) {
    return new PolicyReader(reader, name, unknownKey, problems).read(planNames);
  }

  private PolicyConfig read(Set<String> planNames) {
    int before = problems.size();
    readEach();
    Algorithm algorithm = value(ALGORITHM);
    Map<String, List<Limit>> plans = plans(planNames);
    PolicyConfig.Adaptive adaptive = adaptive(algorithm, planNames);
    List<Limit> limits;
    if (!adaptiveLimits(algorithm)) {
      limits = limits(base + LIMITS.name(), value(LIMITS));
    } else if (adaptive != null && value(RETRY_AFTER) != null) {
      // The ceiling stands for the limit in headers; the store never sees this policy.
      limits = List.of(Limit.of(adaptive.ceiling(), value(RETRY_AFTER)));
    } else {
      limits = null; // its problem is reported
    }
    checkCount(algorithm);
    LeaseMode lease = algorithm == null ? null : lease(algorithm);
    if (problems.size() > before || unset) {
      return null;
    }
    try {
      return build(algorithm, limits, plans, lease, adaptive);
    } catch (ConfigException e) {
      problems.add(e);
      return null;
    }
  }

  /** Reads every key that applies to the policy's algorithm; lease mode's are read together. */
  private void readEach() {
    Algorithm algorithm = read(ALGORITHM);
    for (Setting<?> setting : PolicySettings.OWN) {
      if (setting == ALGORITHM || setting == LEASE || LEASE_TUNING.contains(setting)) {
        continue;
      }
      if (setting.appliesTo(algorithm)) {
        read(setting);
      } else if (algorithm != null) { // else the algorithm's own problem is reported
        notFor(setting, algorithm);
      }
    }
  }

  private void notFor(Setting<?> setting, Algorithm algorithm) {
    String key = base + setting.name();
    String only =
        String.join(" and ", setting.algorithms().stream().map(Algorithm::toString).toList());
    reader
        .text(key)
        .ifPresent(
            value ->
                problems.add(
                    new ConfigException(
                        key,
                        "applies to "
                            + only
                            + " only, not to "
                            + algorithm
                            + ", was '"
                            + value
                            + "'")));
  }

  /** The value of {@code setting}; null after adding its problem. */
  private <T> T read(Setting<T> setting) {
    String key = base + setting.name();
    if (unknownKey && setting.isRequired() && reader.text(key).isEmpty()) {
      unset = true;
      return null;
    }
    try {
      T value = reader.get(key, setting);
      values.put(setting, value);
      return value;
    } catch (ConfigException e) {
      problems.add(e);
      return null;
    }
  }

  /** What {@link #read} found; null if it was bad or not read. */
  @SuppressWarnings("unchecked")
  private <T> T value(Setting<T> setting) {
    return (T) values.get(setting);
  }

  /** Each plan's limits; a plan sets its limits only, and plans need a plan source. */
  private Map<String, List<Limit>> plans(Set<String> planNames) {
    Map<String, List<Limit>> plans = new TreeMap<>();
    for (String plan : planNames) {
      String planBase = base + "plan." + plan + ".";
      for (String key : PolicySettings.NAMES) {
        if (!key.equals(LIMITS.name()) && reader.text(planBase + key).isPresent()) {
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
      String key = planBase + LIMITS.name();
      List<Limit> limits = limits(key, collect(() -> reader.get(key, PLAN_LIMITS)));
      if (limits != null) {
        plans.put(plan, limits);
      }
    }
    checkPlanSource(planNames);
    return plans;
  }

  private void checkPlanSource(Set<String> planNames) {
    String key = base + PLAN_SOURCE.name();
    PolicyConfig.PlanSource planSource = value(PLAN_SOURCE);
    if (!planNames.isEmpty() && planSource == null && reader.text(key).isEmpty()) {
      problems.add(
          new ConfigException(
              key,
              "required with plans ("
                  + planNames
                  + "): role:<role>,<role>..., resolver:<name> or header:<name>"));
    }
    if (planNames.isEmpty() && planSource != null) {
      problems.add(
          new ConfigException(
              key,
              "names where a plan comes from, but the policy has no plan: set "
                  + base
                  + "plan.<plan>.limits, was '"
                  + planSource
                  + "'"));
    }
  }

  private void checkCount(Algorithm algorithm) {
    PolicyConfig.Count count = value(COUNT);
    if (algorithm == Algorithm.CONCURRENCY && count != null && !count.all()) {
      problems.add(
          new ConfigException(
              base + COUNT.name(),
              "a concurrency permit is given back whenever its request ends, so there is nothing"
                  + " to count: only all applies, was '"
                  + reader.text(base + COUNT.name()).orElse("")
                  + "'"));
    }
  }

  /** Whether the policy's limits are {@code adaptive} (a concurrency policy's only). */
  private boolean adaptiveLimits(Algorithm algorithm) {
    String text = value(LIMITS);
    return algorithm == Algorithm.CONCURRENCY && text != null && text.equalsIgnoreCase("adaptive");
  }

  /**
   * An adaptive limit's settings, which are errors without {@code limits=adaptive}; null for a
   * fixed limit, or after adding every problem.
   */
  private PolicyConfig.Adaptive adaptive(Algorithm algorithm, Set<String> planNames) {
    if (!adaptiveLimits(algorithm)) {
      if (algorithm == Algorithm.CONCURRENCY) {
        ADAPTIVE_TUNING.forEach(setting -> onlyWith(setting, "limits=adaptive"));
      }
      return null;
    }
    int before = problems.size();
    if (!planNames.isEmpty()) {
      problems.add(
          new ConfigException(
              base + LIMITS.name(),
              "an adaptive limit finds its own number, so plans "
                  + planNames
                  + " cannot set theirs; use a fixed limit, was 'adaptive'"));
    }
    String keyName = base + KEY.name();
    reader
        .text(keyName)
        .ifPresent(
            key ->
                problems.add(
                    new ConfigException(
                        keyName,
                        "an adaptive limit is one per node, for every client: it has no key,"
                            + " was '"
                            + key
                            + "'")));
    Long floor = value(ADAPTIVE_FLOOR);
    Long ceiling = value(ADAPTIVE_CEILING);
    Long initial = value(ADAPTIVE_INITIAL);
    Double tolerance = value(ADAPTIVE_TOLERANCE);
    if (floor == null || ceiling == null || initial == null || tolerance == null) {
      return null; // each one's problem is reported
    }
    if (ceiling < floor) {
      problems.add(
          new ConfigException(
              base + ADAPTIVE_CEILING.name(),
              "below " + base + ADAPTIVE_FLOOR.name() + " (" + floor + "), was '" + ceiling + "'"));
      return null;
    }
    // The initial limit's default is clamped into the range; one that is set must be in it.
    long start = initial;
    if (initial < floor || initial > ceiling) {
      String key = base + ADAPTIVE_INITIAL.name();
      if (reader.text(key).isPresent()) {
        problems.add(
            new ConfigException(
                key,
                "expected a limit between the floor ("
                    + floor
                    + ") and the ceiling ("
                    + ceiling
                    + "), was '"
                    + initial
                    + "'"));
      }
      start = Math.max(floor, Math.min(ceiling, initial));
    }
    return problems.size() > before
        ? null
        : new PolicyConfig.Adaptive(floor.intValue(), ceiling.intValue(), (int) start, tolerance);
  }

  /** Reports {@code setting} when it is set although {@code base + condition} is not. */
  private void onlyWith(Setting<?> setting, String condition) {
    String key = base + setting.name();
    reader
        .text(key)
        .ifPresent(
            value ->
                problems.add(
                    new ConfigException(
                        key, "applies only with " + base + condition + ", was '" + value + "'")));
  }

  /** The limits {@code text} at {@code key} says; null if it was not read or is bad. */
  private List<Limit> limits(String key, String text) {
    if (text == null) {
      return null;
    }
    List<Limit> limits =
        collect(
            () ->
                reader.parse(
                    key, text, t -> Limits.parse(t, value(ALGORITHM), value(RETRY_AFTER))));
    QuotaCalendar.ZoneSetting zone = value(QUOTA_TIME_ZONE);
    QuotaCalendar.AnchorSetting anchor = value(QUOTA_ANCHOR_DAY);
    if (limits == null || zone == null || anchor == null) {
      return limits;
    }
    return QuotaCalendar.inCalendar(limits, zone.zone(), anchor.day());
  }

  /**
   * Lease mode: {@code lease=on} and its tuning keys, which are errors without it; null after
   * adding every problem.
   */
  private LeaseMode lease(Algorithm algorithm) {
    int before = problems.size();
    Boolean on = read(LEASE);
    if (on == null) {
      return null;
    }
    if (!on) {
      LEASE_TUNING.forEach(setting -> onlyWith(setting, "lease=on"));
      return problems.size() > before ? null : LeaseMode.OFF;
    }
    if (!LEASE.appliesTo(algorithm)) {
      problems.add(
          new ConfigException(
              base + LEASE.name(),
              "lease mode is proven never to admit more than exact mode for token-bucket and"
                  + " fixed-window only, not for "
                  + algorithm
                  + ", was '"
                  + reader.text(base + LEASE.name()).orElse("")
                  + "'"));
      return null;
    }
    Duration refresh = read(LEASE_REFRESH);
    Duration ttl = checkTtl(read(LEASE_TTL), refresh);
    Long maxSlice = checkMaxSlice(read(LEASE_MAX_SLICE));
    Double lowWater = read(LEASE_LOW_WATER);
    return problems.size() > before ? null : LeaseMode.on(refresh, ttl, maxSlice, lowWater);
  }

  private Duration checkTtl(Duration ttl, Duration refresh) {
    Duration least = refresh == null ? LeaseMode.MIN_INTERVAL : refresh;
    if (ttl != null && (ttl.compareTo(least) < 0 || ttl.compareTo(LeaseMode.MAX_TTL) > 0)) {
      String key = base + LEASE_TTL.name();
      problems.add(
          new ConfigException(
              key,
              "expected a duration between "
                  + base
                  + "lease-refresh ("
                  + least.toMillis()
                  + "ms) and 1h, was '"
                  + reader.text(key).orElse(ttl.toMillis() + "ms")
                  + "'"));
    }
    return ttl;
  }

  private Long checkMaxSlice(Long maxSlice) {
    Long permits = value(PERMITS);
    long least = permits == null ? 1 : permits;
    if (maxSlice != null && maxSlice < least) {
      problems.add(
          new ConfigException(
              base + LEASE_MAX_SLICE.name(),
              "a slice smaller than one request's permits ("
                  + least
                  + ") could never admit it, was '"
                  + maxSlice
                  + "'"));
    }
    return maxSlice;
  }

  /** The policy and its plans, once every key is valid alone: the checks across limits. */
  private PolicyConfig build(
      Algorithm algorithm,
      List<Limit> limits,
      Map<String, List<Limit>> planLimits,
      LeaseMode lease,
      PolicyConfig.Adaptive adaptive) {
    Policy policy = policy(name, algorithm, limits, base + LIMITS.name());
    boolean quotas =
        limits.stream().anyMatch(Limit::isQuota)
            || planLimits.values().stream().flatMap(List::stream).anyMatch(Limit::isQuota);
    if (lease.enabled() && quotas) {
      throw new ConfigException(
          base + LEASE.name(),
          "lease mode spends slices of a rate, not of a calendar quota; remove the quota or set"
              + " lease=off, was 'on'");
    }
    long permits = value(PERMITS);
    long maxCost = value(MAX_COST);
    long capacity = Limits.capacity(algorithm, limits);
    if (permits > capacity) {
      throw new ConfigException(
          base + PERMITS.name(),
          "a request would cost more than the smallest limit can ever admit ("
              + capacity
              + "), so every request would be rejected, was '"
              + permits
              + "'");
    }
    if (maxCost < permits) {
      throw new ConfigException(
          base + MAX_COST.name(),
          "below the policy's permits ("
              + permits
              + "), which a request without a cost is charged, was '"
              + maxCost
              + "'");
    }
    return new PolicyConfig(
        policy,
        adaptive != null ? CONSTANT_KEY : value(KEY), // one limit for every client
        value(ON_MISSING_KEY),
        permits,
        value(DRY_RUN),
        shaping(algorithm),
        lease,
        // Above the capacity every cost is rejected alike: capping there keeps the stores'
        // arithmetic far from overflow.
        new PolicyConfig.Cost(value(COST), Math.min(maxCost, capacity + 1)),
        value(COUNT),
        plans(algorithm, planLimits),
        algorithm == Algorithm.CONCURRENCY
            ? new PolicyConfig.Overload(adaptive, value(CRITICALITY), criticalShare(adaptive))
            : PolicyConfig.Overload.NONE,
        quota());
  }

  /** Where the quotas take their zone and anchor day. */
  private QuotaCalendar quota() {
    QuotaCalendar.ZoneSetting zone = value(QUOTA_TIME_ZONE);
    QuotaCalendar.AnchorSetting anchor = value(QUOTA_ANCHOR_DAY);
    return new QuotaCalendar(zone.zone(), zone.resolver(), anchor.day(), anchor.resolver());
  }

  /**
   * The share kept for critical requests: as set, else {@link Criticality#ADAPTIVE_SHARE} of an
   * adaptive limit, none of a fixed.
   */
  private double criticalShare(PolicyConfig.Adaptive adaptive) {
    Double share = value(CRITICAL_SHARE);
    return share != null ? share : adaptive != null ? Criticality.ADAPTIVE_SHARE : 0;
  }

  private PolicyConfig.Plans plans(Algorithm algorithm, Map<String, List<Limit>> planLimits) {
    if (planLimits.isEmpty()) {
      return PolicyConfig.Plans.NONE;
    }
    long permits = value(PERMITS);
    Map<String, Policy> plans = new LinkedHashMap<>();
    for (var plan : planLimits.entrySet()) {
      String key = base + "plan." + plan.getKey() + ".limits";
      String planName = name + LimiterConfig.PLAN_SEGMENT + plan.getKey();
      plans.put(plan.getKey(), policy(planName, algorithm, plan.getValue(), key));
      if (permits > Limits.capacity(algorithm, plan.getValue())) {
        throw new ConfigException(
            key,
            "a request would cost more ("
                + permits
                + " permits) than the smallest limit can ever admit, was '"
                + reader.text(key).orElse("")
                + "'");
      }
    }
    return new PolicyConfig.Plans(plans, value(PLAN_SOURCE), value(ON_UNKNOWN_PLAN));
  }

  private Policy policy(String name, Algorithm algorithm, List<Limit> limits, String key) {
    try {
      return new Policy(name, algorithm, limits, value(FAILURE));
    } catch (IllegalArgumentException e) {
      // Policy's message already shows the offending limit.
      throw new ConfigException(key, e.getMessage(), e);
    }
  }

  private Shaping shaping(Algorithm algorithm) {
    if (algorithm != Algorithm.LEAKY_BUCKET) {
      return Shaping.NONE;
    }
    return new Shaping(value(NODELAY), value(MAX_DELAY), value(DELAY_AFTER));
  }

  /** The value of {@code step}, or null after adding its problem. */
  private <T> T collect(Supplier<T> step) {
    try {
      return step.get();
    } catch (ConfigException e) {
      problems.add(e);
      return null;
    }
  }
}
