package io.github.limiter.internal.config;

import static io.github.limiter.Algorithm.CONCURRENCY;
import static io.github.limiter.Algorithm.FIXED_WINDOW;
import static io.github.limiter.Algorithm.LEAKY_BUCKET;
import static io.github.limiter.Algorithm.TOKEN_BUCKET;

import io.github.limiter.Algorithm;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.PolicyConfig.Count;
import io.github.limiter.internal.config.PolicyConfig.LeaseMode;
import io.github.limiter.internal.config.PolicyConfig.MissingKey;
import io.github.limiter.internal.names.ConfigNames;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The settings of a policy, {@code limiter.policy.NAME.*}, each declared once: the parser reads
 * them from this table, and docs/configuration.md shows it (limiter-tck's {@code
 * ConfigurationDocsTest} keeps the two alike). The checks across settings are {@link
 * PolicyReader}'s.
 */
final class PolicySettings {

  private PolicySettings() {}

  static final Setting<Algorithm> ALGORITHM =
      Setting.of(
              "algorithm",
              Suggestion.oneOf(
                  Algorithm::fromConfigName,
                  ConfigNames.names(Algorithm.class, Algorithm::configName)),
              null)
          .required()
          .doc(
              "algorithm",
              "required",
              "token-bucket",
              "`fixed-window`, `sliding-window-counter`, `sliding-window-log`, `token-bucket`,"
                  + " `leaky-bucket`, `concurrency`");

  /** The text of the limits, which {@link PolicyReader} parses under the policy's algorithm. */
  static final Setting<String> LIMITS =
      Setting.of("limits", Function.identity(), null)
          .required()
          .doc(
              "limits",
              "required",
              "10/s burst=20, 1000/h",
              "one or more limits, all-or-nothing; `burst` (capacity) and `initial` for the buckets"
                  + " only; for `concurrency`, one whole number from 1 to 1000000, the most"
                  + " requests in flight per key (`4`), or `adaptive`: one limit per node, found"
                  + " from latency (see [Adaptive concurrency](adaptive-concurrency.md))");

  static final Setting<Duration> RETRY_AFTER =
      Setting.of("retry-after", PolicySettings::retryAfter, Duration.ofSeconds(1))
          .only(CONCURRENCY)
          .doc(
              "duration, 1ms-1h",
              "`1s`",
              "5s",
              "`concurrency` only: the `Retry-After` of a rejection (see [Concurrency"
                  + " limits](api-products.md#concurrency-limits))");

  static final Setting<Long> ADAPTIVE_FLOOR =
      Setting.of("adaptive-floor", ConfigReader.integer(1, Policy.MAX_IN_FLIGHT), 1L)
          .only(CONCURRENCY)
          .doc(
              "int, 1-1000000",
              "`1`",
              "4",
              "`limits=adaptive` only: the least the limit may shrink to, however slow the"
                  + " backend");

  static final Setting<Long> ADAPTIVE_CEILING =
      Setting.of("adaptive-ceiling", ConfigReader.integer(1, Policy.MAX_IN_FLIGHT), 1000L)
          .only(CONCURRENCY)
          .doc(
              "int ≥ `adaptive-floor`",
              "`1000`",
              "200",
              "`limits=adaptive` only: the most the limit may grow to");

  static final Setting<Long> ADAPTIVE_INITIAL =
      Setting.of("adaptive-initial", ConfigReader.integer(1, Policy.MAX_IN_FLIGHT), 20L)
          .only(CONCURRENCY)
          .doc(
              "int, floor-ceiling",
              "`20`, within floor and ceiling",
              "10",
              "`limits=adaptive` only: the limit at start-up, before anything was measured");

  static final Setting<Double> ADAPTIVE_TOLERANCE =
      Setting.of("adaptive-tolerance", PolicySettings::tolerance, 1.5)
          .only(CONCURRENCY)
          .doc(
              "number, above 1 to 100",
              "`1.5`",
              "2",
              "`limits=adaptive` only: how many times its unloaded latency the backend may take"
                  + " before the limit shrinks; lower keeps latency lower, higher keeps more in"
                  + " flight");

  static final Setting<PolicyConfig.CriticalitySource> CRITICALITY =
      Setting.of(
              "criticality",
              PolicyConfig.CriticalitySource::parse,
              PolicyConfig.CriticalitySource.DEFAULT)
          .only(CONCURRENCY)
          .doc(
              "`critical`, `default`, `sheddable`, `header:NAME`, `resolver:NAME`",
              "`default`",
              "header:X-Criticality",
              "how much a request matters under overload: sheddable ones are refused first,"
                  + " critical ones last; a header is believed only from a trusted proxy; a route's"
                  + " or `@Limited`'s criticality applies when a request has none (see"
                  + " [Criticality](adaptive-concurrency.md#criticality))");

  /**
   * Unset, {@link PolicyReader} takes {@link Criticality#ADAPTIVE_SHARE} for an adaptive limit and
   * 0 for a fixed one.
   */
  static final Setting<Double> CRITICAL_SHARE =
      Setting.of("critical-share", PolicySettings::criticalShare, null)
          .only(CONCURRENCY)
          .doc(
              "fraction in [0, 0.5)",
              "`0.2` adaptive, `0` fixed",
              "0.1",
              "the share of the limit kept for critical requests: a default request leaves it"
                  + " free, a sheddable one twice it; an adaptive limit grows around it, a fixed"
                  + " one keeps none unless set, so that it admits its N of any criticality");

  static final Setting<KeySource> KEY =
      Setting.of("key", KeySource::parse, KeySource.REMOTE_ADDRESS)
          .doc(
              "key source",
              "`remote-address`",
              "header:X-Api-Key",
              "`remote-address`, `header:NAME`, `principal`, `constant`, `resolver:NAME`");

  static final Setting<MissingKey> ON_MISSING_KEY =
      Setting.of(
              "on-missing-key",
              Suggestion.oneOf(
                  PolicySettings::missingKey,
                  ConfigNames.names(MissingKey.class, MissingKey::configName)),
              MissingKey.REMOTE_ADDRESS)
          .doc(
              "`remote-address`, `reject`, `allow`",
              "`remote-address`",
              "reject",
              "a request without a key: use the address, reject it (429, no Retry-After), or let"
                  + " it pass");

  static final Setting<Long> PERMITS =
      Setting.of("permits", ConfigReader.integer(1, Long.MAX_VALUE), 1L)
          .doc("int ≥ 1", "`1`", "5", "what one request costs; at most the smallest capacity");

  static final Setting<KeySource> COST =
      Setting.of("cost", PolicyConfig.Cost::parseSource, null)
          .doc(
              "`header:NAME`, `resolver:NAME`",
              "none: `permits`",
              "header:X-Tokens",
              "a request's cost found at run time, a decimal number; missing, malformed or below"
                  + " 1: `permits` (see [Request costs](api-products.md#request-costs))");

  static final Setting<Long> MAX_COST =
      Setting.of("max-cost", ConfigReader.integer(1, Long.MAX_VALUE), Long.MAX_VALUE)
          .doc(
              "int ≥ `permits`",
              "no cap",
              "4000",
              "the most one request is charged: a larger cost is charged this");

  /** The text of a plan's limits, parsed as {@link #LIMITS}; not a key of the policy itself. */
  static final Setting<String> PLAN_LIMITS =
      Setting.of("plan.PLAN.limits", Function.identity(), null)
          .required()
          .doc(
              "limits",
              "none",
              "10000/h burst=500",
              "the limits of plan `PLAN`; everything else is the policy's (see"
                  + " [Plans](api-products.md#plans))");

  /** Listed plan names, which {@link LimiterConfig} reads with the policies' names. */
  static final Setting<String> PLANS =
      Setting.of("plans", Function.identity(), null)
          .doc(
              "names",
              "none",
              "pro,enterprise",
              "the plans set only in environment variables (`LIMITER_POLICY_API_PLAN_PRO_LIMITS`),"
                  + " which cannot be found by their names, as `limiter.policies` lists policies");

  static final Setting<PolicyConfig.PlanSource> PLAN_SOURCE =
      Setting.of("plan-source", PolicyConfig.PlanSource::parse, null)
          .doc(
              "`role:R1,R2`, `resolver:NAME`, `header:NAME`",
              "none; required with plans",
              "role:gold,pro",
              "where a request's plan comes from");

  static final Setting<Boolean> ON_UNKNOWN_PLAN =
      Setting.of("on-unknown-plan", PolicySettings::rejectUnknownPlan, false)
          .doc(
              "`default`, `reject`",
              "`default`",
              "reject",
              "a plan name that is not configured: the policy's own limits, or a rejection like a"
                  + " missing key's");

  static final Setting<QuotaCalendar.ZoneSetting> QUOTA_TIME_ZONE =
      Setting.of(
              "quota.time-zone",
              QuotaCalendar.ZoneSetting::parse,
              new QuotaCalendar.ZoneSetting(java.time.ZoneOffset.UTC, null))
          .doc(
              "zone ID, `resolver:NAME`",
              "`UTC`",
              "Europe/Berlin",
              "the time zone of the calendar quotas (`10000/month`, `/day`, `/week`, `/year`): a"
                  + " day starts at local midnight; or a resolver that answers each request's zone"
                  + " (the customer's), falling back to UTC (see [Calendar"
                  + " quotas](api-products.md#calendar-quotas))");

  static final Setting<QuotaCalendar.AnchorSetting> QUOTA_ANCHOR_DAY =
      Setting.of(
              "quota.anchor-day",
              QuotaCalendar.AnchorSetting::parse,
              new QuotaCalendar.AnchorSetting(1, null))
          .doc(
              "int 1-31, `resolver:NAME`",
              "`1`",
              "15",
              "the day of the month a quota's months start on (a shorter month: its last day);"
                  + " or a resolver that answers each request's billing day, falling back to 1");

  static final Setting<Count> COUNT =
      Setting.of("count", Count::parse, Count.ALL)
          .doc(
              "`all`, `status:CODE,...`",
              "`all`",
              "status:401,403",
              "which requests count, by response status (the filter); the others get their charge"
                  + " back when they end (see [What counts](api-products.md#what-counts));"
                  + " `concurrency`: `all` only");

  static final Setting<FailureMode> FAILURE =
      Setting.of(
              "failure",
              Suggestion.oneOf(
                  FailureMode::fromConfigName,
                  ConfigNames.names(FailureMode.class, FailureMode::configName)),
              FailureMode.LOCAL)
          .doc(
              "`fail-open`, `fail-closed`, `local`",
              "`local`",
              "fail-closed",
              "what a decision does when the store cannot decide (a Redis outage)");

  static final Setting<Boolean> DRY_RUN =
      Setting.of("dry-run", ConfigReader::parseBoolean, false)
          .doc(
              "boolean",
              "`false`",
              "true",
              "decide and send headers, but let would-be rejections pass (counted, logged at most"
                  + " once a minute)");

  static final Setting<Boolean> NODELAY =
      Setting.of("nodelay", ConfigReader::parseBoolean, false)
          .only(LEAKY_BUCKET)
          .doc(
              "boolean",
              "`false`",
              "true",
              "leaky bucket: pass at once instead of waiting for the departure (still counted)");

  static final Setting<Duration> MAX_DELAY =
      Setting.of("max-delay", Limit::parseDuration, Duration.ofSeconds(30))
          .only(LEAKY_BUCKET)
          .doc(
              "duration",
              "`30s`",
              "5s",
              "leaky bucket: the longest a request waits for its departure");

  static final Setting<Long> DELAY_AFTER =
      Setting.of("delay-after", ConfigReader.integer(0, Integer.MAX_VALUE), 0L)
          .only(LEAKY_BUCKET)
          .doc(
              "int ≥ 0",
              "`0`",
              "5",
              "leaky bucket: the first N queued requests pass at once (nginx `delay=N`)");

  /**
   * Lease mode. Set off, it applies to every algorithm; on, to these only, which {@link
   * PolicyReader} checks with a message of its own.
   */
  static final Setting<Boolean> LEASE =
      Setting.of("lease", PolicySettings::onOff, false)
          .only(TOKEN_BUCKET, FIXED_WINDOW)
          .doc(
              "`on`, `off`",
              "`off`",
              "on",
              "[lease mode](lease-mode.md) with the Redis store: each node spends slices of the limit locally;"
                  + " `token-bucket` and `fixed-window` only");

  static final Setting<Duration> LEASE_REFRESH =
      Setting.of("lease-refresh", PolicySettings::leaseRefresh, LeaseMode.OFF.refresh())
          .doc(
              "duration, 10ms-1h",
              "`200ms`",
              "100ms",
              "lease mode: a slice is sized to last about this long at the node's own rate");

  static final Setting<Duration> LEASE_TTL =
      Setting.of("lease-ttl", Limit::parseDuration, LeaseMode.OFF.ttl())
          .doc(
              "duration, `lease-refresh`-1h",
              "`2s`",
              "5s",
              "lease mode: how long a slice may be spent; what is left then goes back, and a node"
                  + " that dies holds its slice at most this long");

  static final Setting<Long> LEASE_MAX_SLICE =
      Setting.of(
              "lease-max-slice",
              ConfigReader.integer(1, Integer.MAX_VALUE),
              LeaseMode.OFF.maxSlice())
          .doc(
              "int ≥ `permits`",
              "no cap",
              "500",
              "lease mode: the largest slice, besides capacity ÷ active nodes");

  static final Setting<Double> LEASE_LOW_WATER =
      Setting.of("lease-low-water", PolicySettings::lowWater, LeaseMode.OFF.lowWater())
          .doc(
              "fraction in [0, 1)",
              "`0.25`",
              "0.5",
              "lease mode: the next slice is fetched in the background when less than this share"
                  + " of the last one is left (`0`: only when it is empty)");

  /** Every row of the reference table, in its order. */
  static final List<Setting<?>> TABLE =
      List.of(
          ALGORITHM,
          LIMITS,
          RETRY_AFTER,
          ADAPTIVE_FLOOR,
          ADAPTIVE_CEILING,
          ADAPTIVE_INITIAL,
          ADAPTIVE_TOLERANCE,
          CRITICALITY,
          CRITICAL_SHARE,
          KEY,
          ON_MISSING_KEY,
          PERMITS,
          COST,
          MAX_COST,
          PLAN_LIMITS,
          PLANS,
          PLAN_SOURCE,
          ON_UNKNOWN_PLAN,
          QUOTA_TIME_ZONE,
          QUOTA_ANCHOR_DAY,
          COUNT,
          FAILURE,
          DRY_RUN,
          NODELAY,
          MAX_DELAY,
          DELAY_AFTER,
          LEASE,
          LEASE_REFRESH,
          LEASE_TTL,
          LEASE_MAX_SLICE,
          LEASE_LOW_WATER);

  /** The keys that tune an adaptive limit, which apply only with {@code limits=adaptive}. */
  static final List<Setting<?>> ADAPTIVE_TUNING =
      List.of(ADAPTIVE_FLOOR, ADAPTIVE_CEILING, ADAPTIVE_INITIAL, ADAPTIVE_TOLERANCE);

  /** The keys that tune lease mode, which apply only with {@code lease=on}. */
  static final List<Setting<?>> LEASE_TUNING =
      List.of(LEASE_REFRESH, LEASE_TTL, LEASE_MAX_SLICE, LEASE_LOW_WATER);

  /** The keys of a policy itself: every row but a plan's limits. */
  static final List<Setting<?>> OWN = TABLE.stream().filter(s -> s != PLAN_LIMITS).toList();

  /** The names of {@link #OWN}. */
  static final Set<String> NAMES = Setting.names(OWN);

  private static Duration retryAfter(String text) {
    Duration value = Limit.parseDuration(text);
    if (value.compareTo(Duration.ofMillis(1)) < 0 || value.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException(
          "expected a duration between 1ms and 1h, was '" + text + "'");
    }
    return value;
  }

  private static double tolerance(String text) {
    return fraction(text, 1, false, 100, "a number above 1 and at most 100, such as 1.5");
  }

  private static double criticalShare(String text) {
    return fraction(text, 0, true, 0.5, "a fraction at least 0 and below 0.5, such as 0.1");
  }

  /** {@code text} as a number above (or at) {@code low} and below {@code high}. */
  private static double fraction(
      String text, double low, boolean lowIncluded, double high, String expected) {
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected " + expected + ", was '" + text + "'", e);
    }
    boolean above = lowIncluded ? value >= low : value > low;
    boolean below = high == 100 ? value <= high : value < high;
    if (!(above && below)) {
      throw new IllegalArgumentException("expected " + expected + ", was '" + text + "'");
    }
    return value;
  }

  private static Duration leaseRefresh(String text) {
    Duration value = Limit.parseDuration(text);
    if (value.compareTo(LeaseMode.MIN_INTERVAL) < 0 || value.compareTo(LeaseMode.MAX_TTL) > 0) {
      throw new IllegalArgumentException(
          "expected a duration between 10ms and 1h, was '" + text + "'");
    }
    return value;
  }

  private static boolean onOff(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "on", "true" -> true;
      case "off", "false" -> false;
      default -> throw new IllegalArgumentException("expected on or off, was '" + value + "'");
    };
  }

  private static double lowWater(String value) {
    String expected =
        "expected a fraction of the last slice, at least 0 and below 1, such as 0.25, was '"
            + value
            + "'";
    double fraction;
    try {
      fraction = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(expected, e);
    }
    if (!(fraction >= 0 && fraction < 1)) {
      throw new IllegalArgumentException(expected);
    }
    return fraction;
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
    return ConfigNames.parse(MissingKey.class, MissingKey::configName, value);
  }
}
