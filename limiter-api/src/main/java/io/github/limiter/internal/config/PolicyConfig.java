package io.github.limiter.internal.config;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A policy together with how adapters apply it: where the key comes from, what a request costs, and
 * the shaping and dry-run options.
 *
 * @param policy the limits themselves
 * @param key where the client identity comes from
 * @param onMissingKey what happens when that source yields no key
 * @param permits what one request costs
 * @param dryRun decide and send headers, but let would-be rejections pass (they are counted and
 *     logged)
 * @param shaping leaky-bucket shaping: how long an admitted request may wait for its departure
 * @param lease lease mode: whether a node spends slices of the shared limit locally, and how it
 *     sizes and renews them ({@link LeaseMode#OFF}: every decision asks the store)
 * @param cost where a request's cost comes from, when it is more than the static {@code permits}
 * @param count which requests count against the policy; the others are refunded when they end
 * @param plans the policy's limits per customer plan, and where a request's plan comes from
 * @param overload a concurrency limit's handling of overload: whether it adapts, and how it sheds
 *     by criticality
 * @param quota the time zone and anchor day of the calendar quotas, fixed or per request
 */
public record PolicyConfig(
    Policy policy,
    KeySource key,
    MissingKey onMissingKey,
    long permits,
    boolean dryRun,
    Shaping shaping,
    LeaseMode lease,
    Cost cost,
    Count count,
    Plans plans,
    Overload overload,
    QuotaCalendar quota) {

  /** What a request without a key gets. */
  public enum MissingKey {
    /** Fall back to the client address. The default. */
    REMOTE_ADDRESS("remote-address"),
    /** Reject it as over the limit. */
    REJECT("reject"),
    /** Let it pass unlimited by this policy. */
    ALLOW("allow");

    private final String configName;

    MissingKey(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }
  }

  /**
   * Leaky-bucket shaping, like nginx {@code limit_req}. {@link Decision#delay()} is the time until
   * an admitted request departs, that is until its own processing (its {@code permits} intervals)
   * is complete at the leak rate. Like nginx, the request is served when it reaches the head of the
   * queue: a request that finds the queue empty passes at once, and a burst of b+1 is spread over b
   * intervals. The first {@code delayAfter} queued requests pass at once too (nginx {@code
   * delay=N}); no request waits longer than {@code maxDelay}; {@code nodelay} passes every request
   * at once, still counted.
   */
  public record Shaping(boolean nodelay, Duration maxDelay, long delayAfter) {

    /** No waiting: the default for every algorithm but the leaky bucket. */
    public static final Shaping NONE = new Shaping(true, Duration.ZERO, 0);

    private static final Duration MAX_NANOS = Duration.ofNanos(Long.MAX_VALUE);

    public Shaping {
      Objects.requireNonNull(maxDelay, "maxDelay");
      if (maxDelay.isNegative()) {
        throw new IllegalArgumentException("maxDelay must not be negative, was " + maxDelay);
      }
      if (delayAfter < 0) {
        throw new IllegalArgumentException("delayAfter must not be negative, was " + delayAfter);
      }
    }

    /**
     * How long an admitted request of {@code permits} waits before it is served: 0 under nodelay,
     * else {@code max(0, delay − permits·interval − delayAfter·interval)}, capped at {@code
     * maxDelay}, with the interval of the decision's limit. A rejection waits 0.
     */
    public long waitNanos(Decision decision, long permits) {
      if (nodelay || !decision.isAllowed() || decision.delayNanos() <= 0) {
        return 0;
      }
      long interval = decision.limit().intervalNanos();
      long slots = permits + delayAfter;
      // Saturate: slots that cover more than a long of nanoseconds cover every delay.
      long passing =
          slots < 0 || slots > Long.MAX_VALUE / interval ? Long.MAX_VALUE : slots * interval;
      long wait = decision.delayNanos() - passing;
      // A max-delay beyond 292 years does not fit in nanoseconds: it caps nothing.
      long cap = maxDelay.compareTo(MAX_NANOS) >= 0 ? Long.MAX_VALUE : maxDelay.toNanos();
      return wait <= 0 ? 0 : Math.min(wait, cap);
    }
  }

  /**
   * Lease mode, for a store shared by several nodes (Redis): a node reserves a slice of the limit
   * by one atomic call, spends it locally, and asks for the next one before it runs out. Slices are
   * charged before they are spent, so lease mode never admits more than exact mode; it may admit
   * less, by at most what the nodes hold. Proven for the token bucket and the fixed window only.
   *
   * @param enabled whether the policy is in lease mode
   * @param refresh the time a slice should last at the node's own rate: a slice is about rate ×
   *     refresh
   * @param ttl how long a slice may be spent; what is left then goes back, and a node that dies
   *     holds its slice at most this long
   * @param maxSlice the most one slice may be, besides capacity ÷ active nodes
   * @param lowWater the fraction of the last slice below which the next one is fetched in the
   *     background
   */
  public record LeaseMode(
      boolean enabled, Duration refresh, Duration ttl, long maxSlice, double lowWater) {

    /** The least refresh interval and TTL. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(10);

    /** The largest TTL: a lease is a short reservation, not a store of permits. */
    public static final Duration MAX_TTL = Duration.ofHours(1);

    /** Every decision asks the store: the default (after the bounds it is checked against). */
    public static final LeaseMode OFF =
        new LeaseMode(
            false, Duration.ofMillis(200), Duration.ofSeconds(2), Integer.MAX_VALUE, 0.25);

    public LeaseMode {
      Objects.requireNonNull(refresh, "refresh");
      Objects.requireNonNull(ttl, "ttl");
      if (refresh.compareTo(MIN_INTERVAL) < 0 || refresh.compareTo(MAX_TTL) > 0) {
        throw new IllegalArgumentException(
            "refresh must be between 10ms and 1h, was " + millis(refresh));
      }
      if (ttl.compareTo(refresh) < 0 || ttl.compareTo(MAX_TTL) > 0) {
        throw new IllegalArgumentException(
            "ttl must be between the refresh interval ("
                + millis(refresh)
                + ") and 1h, was "
                + millis(ttl));
      }
      if (maxSlice < 1 || maxSlice > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "max slice must be between 1 and " + Integer.MAX_VALUE + ", was " + maxSlice);
      }
      if (!(lowWater >= 0 && lowWater < 1)) {
        throw new IllegalArgumentException(
            "low water must be a fraction at least 0 and below 1, was " + lowWater);
      }
    }

    private static String millis(Duration d) {
      return d.toMillis() + "ms";
    }

    /** Lease mode with these settings. */
    public static LeaseMode on(Duration refresh, Duration ttl, long maxSlice, double lowWater) {
      return new LeaseMode(true, refresh, ttl, maxSlice, lowWater);
    }
  }

  /**
   * A request's cost found at run time (the LLM tokens it asks for, the items of a batch), in
   * {@code limiter.policy.NAME.cost}: a header or a resolver whose answer is a decimal number of
   * permits. A missing or malformed answer, or one below 1, costs {@code permits}; one above {@code
   * max} costs {@code max}.
   *
   * @param source {@code header:<name>} or {@code resolver:<name>}; null when the cost is {@code
   *     permits} alone
   * @param max the most one request is charged
   */
  public record Cost(KeySource source, long max) {

    /** Every request costs {@code permits}: the default. */
    public static final Cost STATIC = new Cost(null, Long.MAX_VALUE);

    public Cost {
      if (source != null
          && source.kind() != KeySource.Kind.HEADER
          && source.kind() != KeySource.Kind.RESOLVER) {
        throw new IllegalArgumentException(
            "expected header:<name> or resolver:<name>, was '" + source + "'");
      }
      if (max < 1) {
        throw new IllegalArgumentException("max must be at least 1, was " + max);
      }
    }

    /**
     * Parses {@code header:<name>} or {@code resolver:<name>}.
     *
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public static KeySource parseSource(String text) {
      KeySource source;
      try {
        source = KeySource.parse(text);
      } catch (IllegalArgumentException e) {
        source = null;
      }
      if (source == null
          || (source.kind() != KeySource.Kind.HEADER && source.kind() != KeySource.Kind.RESOLVER)) {
        throw new IllegalArgumentException(
            "expected header:<name> or resolver:<name>, was '" + text.trim() + "'");
      }
      return source;
    }

    /**
     * The cost that {@code text} asks for: {@code fallback} when it is missing, not a decimal
     * number, or below 1; {@code max} when above it (however many digits).
     */
    public long of(String text, long fallback) {
      if (text == null) {
        return fallback;
      }
      String digits = text.trim();
      int length = digits.length();
      if (length == 0) {
        return fallback;
      }
      long value = 0;
      for (int i = 0; i < length; i++) {
        char c = digits.charAt(i);
        if (c < '0' || c > '9') {
          return fallback;
        }
        if (value > (Long.MAX_VALUE - 9) / 10) {
          value = Long.MAX_VALUE; // saturates: too many digits is above any max
          break;
        }
        value = value * 10 + (c - '0');
      }
      return value < 1 ? fallback : Math.min(value, max);
    }
  }

  /**
   * Which requests count, in {@code limiter.policy.NAME.count}: {@code all}, or {@code
   * status:401,403}, those whose response has one of these statuses (for the filter, which sees the
   * response).
   *
   * @param statuses the statuses that count; empty for every request
   */
  public record Count(Set<Integer> statuses) {

    /** Every request counts: the default. */
    public static final Count ALL = new Count(Set.of());

    public Count {
      statuses = Set.copyOf(statuses);
      for (int status : statuses) {
        if (status < 100 || status > 599) {
          throw new IllegalArgumentException("a status is 100 to 599, was " + status);
        }
      }
    }

    public boolean all() {
      return statuses.isEmpty();
    }

    /**
     * Parses {@code all} or {@code status:<code>,<code>...}.
     *
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public static Count parse(String text) {
      String trimmed = text == null ? "" : text.trim();
      if (trimmed.equalsIgnoreCase("all")) {
        return ALL;
      }
      String problem =
          "expected all or status:<code>,<code>... with codes from 100 to 599, such as"
              + " status:401,403, was '"
              + trimmed
              + "'";
      if (!trimmed.regionMatches(true, 0, "status:", 0, 7)) {
        throw new IllegalArgumentException(problem);
      }
      Set<Integer> statuses = new TreeSet<>();
      for (String part : trimmed.substring(7).split(",", -1)) {
        String code = part.trim();
        if (!code.matches("[1-5]\\d\\d")) {
          throw new IllegalArgumentException(problem);
        }
        statuses.add(Integer.parseInt(code));
      }
      return new Count(statuses);
    }

    @Override
    public String toString() {
      return all()
          ? "all"
          : "status:" + String.join(",", statuses.stream().sorted().map(String::valueOf).toList());
    }
  }

  /**
   * Limits per customer plan ({@code limiter.policy.NAME.plan.PLAN.limits}), each a policy of its
   * own named {@code NAME.plan.PLAN}, so each plan's state is its own; everything but the limits is
   * the policy's. A request whose plan is not one of them gets the policy's own limits (the default
   * plan), or is rejected under {@code on-unknown-plan=reject}.
   *
   * @param byName each plan's policy, by plan name
   * @param source where a request's plan comes from; null when there are no plans
   * @param rejectUnknown whether a plan name that is not configured is rejected (else: the default
   *     plan)
   */
  public record Plans(Map<String, Policy> byName, PlanSource source, boolean rejectUnknown) {

    /** No plans: every request gets the policy's limits. */
    public static final Plans NONE = new Plans(Map.of(), null, false);

    public Plans {
      byName = Map.copyOf(byName);
    }

    public boolean any() {
      return !byName.isEmpty();
    }
  }

  /**
   * Where a request's plan comes from, in {@code limiter.policy.NAME.plan-source}.
   *
   * @param kind {@code ROLE}: the first of {@code roles} the principal has, in order; {@code
   *     RESOLVER}: what the resolver {@code argument} answers; {@code HEADER}: header {@code
   *     argument}, believed only from a trusted proxy
   */
  public record PlanSource(Kind kind, List<String> roles, String argument) {

    /** The kinds of plan source. */
    public enum Kind {
      ROLE,
      RESOLVER,
      HEADER
    }

    public PlanSource {
      roles = List.copyOf(roles);
    }

    /**
     * Parses {@code role:<role>,<role>...}, {@code resolver:<name>} or {@code header:<name>}.
     *
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public static PlanSource parse(String text) {
      String trimmed = text == null ? "" : text.trim();
      int colon = trimmed.indexOf(':');
      String kind = colon < 0 ? "" : trimmed.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String argument = colon < 0 ? "" : trimmed.substring(colon + 1).trim();
      if (kind.equals("role")) {
        List<String> roles = new ArrayList<>();
        for (String role : argument.split(",", -1)) {
          if (!role.isBlank()) {
            roles.add(role.trim());
          }
        }
        if (!roles.isEmpty()) {
          return new PlanSource(Kind.ROLE, roles, "");
        }
      } else if (kind.equals("resolver") || kind.equals("header")) {
        try {
          KeySource source = KeySource.parse(kind + ":" + argument); // the same name rules as keys
          return new PlanSource(
              kind.equals("header") ? Kind.HEADER : Kind.RESOLVER, List.of(), source.argument());
        } catch (IllegalArgumentException e) {
          // not a name: reported below, with the plan-source forms rather than the key forms
        }
      }
      throw new IllegalArgumentException(
          "expected role:<role>,<role>..., resolver:<name> or header:<name>, was '"
              + trimmed
              + "'");
    }

    @Override
    public String toString() {
      return kind == Kind.ROLE
          ? "role:" + String.join(",", roles)
          : kind.name().toLowerCase(Locale.ROOT) + ":" + argument;
    }
  }

  /**
   * How a concurrency limit sheds under overload: whether its limit is found from latency, where a
   * request's criticality comes from, and the share of the limit kept for critical requests.
   *
   * @param adaptive how the limit adapts; null for a fixed limit
   * @param criticality the criticality of the policy's requests, or where each request's comes from
   * @param criticalShare the share of the limit kept for critical requests, in [0, 0.5)
   */
  public record Overload(Adaptive adaptive, CriticalitySource criticality, double criticalShare) {

    /**
     * A fixed limit whose requests are all of default criticality, nothing kept for critical ones.
     */
    public static final Overload NONE = new Overload(null, CriticalitySource.DEFAULT, 0);

    public Overload {
      Objects.requireNonNull(criticality, "criticality");
      if (!(criticalShare >= 0 && criticalShare < 0.5)) {
        throw new IllegalArgumentException(
            "critical share must be at least 0 and below 0.5, was " + criticalShare);
      }
    }
  }

  /**
   * An adaptive concurrency limit ({@code limits=adaptive}): one per node, moving with measured
   * latency between a floor and a ceiling (see {@link
   * io.github.limiter.internal.algorithm.AdaptiveLimit}).
   */
  public record Adaptive(int floor, int ceiling, int initial, double tolerance) {

    public Adaptive {
      io.github.limiter.internal.algorithm.AdaptiveLimit.check(floor, ceiling, initial, tolerance);
    }
  }

  /**
   * Where a request's {@link Criticality} comes from, in {@code limiter.policy.NAME.criticality}: a
   * level for every request, or a header (believed only from a trusted proxy) or a resolver that
   * names it per request; a request they give no level gets the route's or {@code @Limited}'s, else
   * {@code level}.
   *
   * @param level the criticality when the source names none
   * @param source {@code header:<name>} or {@code resolver:<name>}; null for a fixed level
   */
  public record CriticalitySource(Criticality level, KeySource source) {

    public static final CriticalitySource DEFAULT =
        new CriticalitySource(Criticality.DEFAULT, null);

    public CriticalitySource {
      Objects.requireNonNull(level, "level");
    }

    /**
     * Parses {@code critical}, {@code default}, {@code sheddable}, {@code header:<name>} or {@code
     * resolver:<name>}.
     *
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public static CriticalitySource parse(String text) {
      String trimmed = text == null ? "" : text.trim();
      Criticality level = Criticality.find(trimmed);
      if (level != null) {
        return new CriticalitySource(level, null);
      }
      try {
        KeySource source = KeySource.parse(trimmed);
        if (source.kind() == KeySource.Kind.HEADER || source.kind() == KeySource.Kind.RESOLVER) {
          return new CriticalitySource(Criticality.DEFAULT, source);
        }
      } catch (IllegalArgumentException e) {
        // reported below, with this setting's forms
      }
      throw new IllegalArgumentException(
          "expected critical, default, sheddable, header:<name> or resolver:<name>, was '"
              + trimmed
              + "'");
    }

    @Override
    public String toString() {
      return source == null ? level.toString() : source.toString();
    }
  }

  public PolicyConfig {
    Objects.requireNonNull(overload, "overload");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(onMissingKey, "onMissingKey");
    Objects.requireNonNull(shaping, "shaping");
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(cost, "cost");
    Objects.requireNonNull(count, "count");
    Objects.requireNonNull(plans, "plans");
    Objects.requireNonNull(quota, "quota");
    if (permits < 1) {
      throw new IllegalArgumentException("permits must be at least 1, was " + permits);
    }
  }

  /** A policy that every decision asks the store about (lease mode off). */
  public PolicyConfig(
      Policy policy,
      KeySource key,
      MissingKey onMissingKey,
      long permits,
      boolean dryRun,
      Shaping shaping) {
    this(
        policy,
        key,
        onMissingKey,
        permits,
        dryRun,
        shaping,
        LeaseMode.OFF,
        Cost.STATIC,
        Count.ALL,
        Plans.NONE,
        Overload.NONE,
        QuotaCalendar.DEFAULT);
  }

  /** A policy keyed by client address, one permit a request, no shaping, not dry-run. */
  public static PolicyConfig of(Policy policy) {
    return new PolicyConfig(
        policy, KeySource.REMOTE_ADDRESS, MissingKey.REMOTE_ADDRESS, 1, false, Shaping.NONE);
  }

  public String name() {
    return policy.name();
  }

  /** Whether the policy's limit is found from latency ({@code limits=adaptive}). */
  public boolean adaptive() {
    return overload.adaptive() != null;
  }
}
