package io.github.limiter.internal.live;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.StoreHealth;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.QuotaCalendar;
import io.github.limiter.internal.log.LogText;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The policies' live limits over one store: policies are versioned values, and a change replaces a
 * policy's version with the next one, never edits one in place. Each key keeps its state by its
 * algorithm's rule ({@link RateLimitStore#rebind}).
 *
 * <p>As a {@link RateLimitStore}, it is the store that adapters bind their policies through: {@link
 * #bind} returns a handle that always decides under the policy's current version. Everything else
 * goes to the store it wraps, which it does not own: closing this closes nothing but its own.
 *
 * <p>Over a store that offers a {@link LiveBoard} (Redis; see {@link RateLimitStore#view}), a
 * change is published there first, with its version number, and {@link #refresh} applies what other
 * nodes published: every node, and a node that starts later, decides under the newest version. Over
 * another store, a change is for this node only.
 */
public final class LiveLimits implements RateLimitStore {

  private static final Logger LOG = Logger.getLogger(LiveLimits.class.getName());

  /**
   * One version of a policy: version 0 is the policy as deployed, and each change adds one.
   *
   * @param number the version number
   * @param policy the policy's value in this version
   */
  public record Version(long number, Policy policy) {}

  /** How often the versions a shared store publishes are read: a change reaches every node. */
  public static final Duration REFRESH_PERIOD = Duration.ofSeconds(1);

  private final RateLimitStore store;
  private final LiveBoard board;
  private final Map<String, LivePolicy> policies = new ConcurrentHashMap<>();

  /** This as a limiter, and the policies it bound for adapters: see {@link #limiter}. */
  private final Limiter asLimiter = Limiter.of(this);

  private final Map<Policy, PolicyLimiter> limiters = new ConcurrentHashMap<>();

  /** The calendars of the policies' quotas as configured, by name: see {@link #inCalendarsOf}. */
  private final Map<String, QuotaCalendar> configuredCalendars = new ConcurrentHashMap<>();

  private final NanoClock clock;
  private ScheduledExecutorService refresher;

  /** Live limits over {@code store}, shared through it if it offers a {@link LiveBoard}. */
  public LiveLimits(RateLimitStore store) {
    this(store, NanoClock.system());
  }

  /** As {@link #LiveLimits(RateLimitStore)}, with {@code clock} timing the overrides' expiry. */
  public LiveLimits(RateLimitStore store, NanoClock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.board = store.view(LiveBoard.class).orElse(null);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Live limits over {@code store} that, over a shared store, follow the versions it publishes
   * every {@link #REFRESH_PERIOD} until {@link #close}.
   */
  public static LiveLimits open(RateLimitStore store) {
    LiveLimits live = new LiveLimits(store);
    if (live.board != null) {
      live.refresher =
          Executors.newSingleThreadScheduledExecutor(
              task -> {
                Thread thread = new Thread(task, "limiter-live-limits");
                thread.setDaemon(true);
                return thread;
              });
      long period = REFRESH_PERIOD.toMillis();
      live.refresher.scheduleWithFixedDelay(live::refreshQuietly, period, period, MILLISECONDS);
    }
    return live;
  }

  /** Stops following the store's versions; the store stays open. */
  @Override
  public void close() {
    if (refresher != null) {
      refresher.shutdownNow();
    }
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "limiter: cannot read the live versions from the store", e);
    }
  }

  /** Whether changes are shared through the store with every node, rather than for this one. */
  public boolean shared() {
    return board != null;
  }

  /**
   * The live handle of {@code policy}: the first policy bound under a name is its version 0, or the
   * version the store's board publishes; a later bind of that name returns the same handle, but in
   * the calendar of the later policy's quotas when that is another (see {@link
   * #inCalendarOfQuotas}).
   */
  @Override
  public PolicyStore bind(Policy policy) {
    Objects.requireNonNull(policy, "policy");
    LivePolicy live = policies.get(policy.name());
    return inCalendarOfQuotas(live != null ? live : first(policy), policy);
  }

  /**
   * {@code live}, or its handle in the calendar of {@code policy}'s quotas (a request's quota zone
   * and anchor day) when {@code policy} keeps the live algorithm and failure mode and its quotas
   * are in a calendar other than the live version's: the live versions decide there, re-zoned, and
   * the live overrides apply. {@code policy}'s limits are not compared, as no later bind of a name
   * compares them: a caller may have re-zoned a version that a change has replaced since.
   */
  private PolicyStore inCalendarOfQuotas(LivePolicy live, Policy policy) {
    Policy now = live.current().version().policy();
    Limit quota = quota(policy);
    if (policy == now
        || quota == null
        || policy.algorithm() != now.algorithm()
        || policy.failureMode() != now.failureMode()) {
      return live;
    }
    QuotaCalendar ours = calendarOf(now);
    if (quota.zone().equals(ours.zone()) && quota.anchorDay() == ours.anchorDay()) {
      return live;
    }
    return live.inCalendar(
        quota.zone(),
        quota.anchorDay(),
        () -> new LiveCalendar(live, store, quota.zone(), quota.anchorDay()));
  }

  /**
   * The calendar of {@code policy}'s quotas: its first quota's zone and anchor day, or, for a
   * version without quotas, the one configured for it (see {@link #inCalendarsOf}).
   */
  private QuotaCalendar calendarOf(Policy policy) {
    Limit quota = quota(policy);
    return quota == null
        ? configuredCalendars.getOrDefault(policy.name(), QuotaCalendar.DEFAULT)
        : new QuotaCalendar(quota.zone(), null, quota.anchorDay(), null);
  }

  /** {@code policy}'s first calendar quota, or null. */
  private static Limit quota(Policy policy) {
    for (Limit limit : policy.limits()) {
      if (limit.isQuota()) {
        return limit;
      }
    }
    return null;
  }

  /** The live handle of the first policy bound under its name. */
  private LivePolicy first(Policy policy) {
    synchronized (this) {
      return policies.computeIfAbsent(
          policy.name(),
          name -> {
            LivePolicy created =
                new LivePolicy(
                    new LivePolicy.Current(new Version(0, policy), store.bind(policy)), clock);
            if (board != null) {
              try {
                LiveBoard.Published published = board.read().get(name);
                if (published != null) {
                  apply(created, published);
                }
                Map<String, KeyOverride> overrides = new TreeMap<>();
                long now = clock.nanos();
                board
                    .readOverrides()
                    .getOrDefault(name, Map.of())
                    .forEach(
                        (key, o) -> {
                          KeyOverride override = fromBoard(created, null, o, now);
                          if (override != null) {
                            overrides.put(key, override);
                          }
                        });
                created.overrides(overrides);
              } catch (RuntimeException e) {
                // The store is down at start-up: the deployed limits decide until a refresh.
                LOG.log(
                    Level.WARNING,
                    "limiter: "
                        + LogText.escape(e.getMessage())
                        + "; policy "
                        + LogText.quote(name)
                        + " starts with its deployed limits until the store answers");
              }
            }
            return created;
          });
    }
  }

  /**
   * {@code policy} bound for the places of an adapter (routes, {@code @Limited} methods): each
   * policy, by value, once, so that places naming it share its limiter; a version of it in a
   * request's quota zone is a value of its own, bound in that calendar (see {@link #bind}). Safe
   * from request threads, which bind those versions.
   */
  public PolicyLimiter limiter(Policy policy) {
    PolicyLimiter found = limiters.get(policy);
    return found != null ? found : limiters.computeIfAbsent(policy, asLimiter::bind);
  }

  /**
   * Learns the calendar of every policy of {@code config} ({@code quota.time-zone} and {@code
   * quota.anchor-day}; a resolver's fallback when they come from one), plans' policies included: a
   * quota added live to a policy that had none counts in it, not in UTC.
   */
  public LiveLimits inCalendarsOf(LimiterConfig config) {
    for (PolicyConfig policy : config.policies().values()) {
      configuredCalendars.put(policy.name(), policy.quota());
      for (Policy plan : policy.plans().byName().values()) {
        configuredCalendars.put(plan.name(), policy.quota());
      }
    }
    return this;
  }

  /** The current version of every bound policy, by name. */
  public List<Version> versions() {
    List<Version> versions = new ArrayList<>();
    for (LivePolicy live : policies.values()) {
      versions.add(live.current().version());
    }
    versions.sort(Comparator.comparing(v -> v.policy().name()));
    return versions;
  }

  /** The current version of the policy {@code name}, if it is bound. */
  public Optional<Version> version(String name) {
    LivePolicy live = policies.get(name);
    return live == null ? Optional.empty() : Optional.of(live.current().version());
  }

  /**
   * Replaces the limits of the policy {@code name} with {@code limits} (as in configuration, e.g.
   * {@code 10/s burst=20, 1000/h}), keeping its algorithm and failure mode: its next version.
   *
   * @throws IllegalArgumentException naming what is wrong: an unknown policy, or bad limits (the
   *     message of the configuration's parser, then nothing changes)
   * @throws UnsupportedOperationException if the store cannot change limits while it runs
   */
  public synchronized Version change(String name, String limits) {
    LivePolicy live = live(name);
    Policy next = validate(name, limits);
    long number = live.current().version().number() + 1;
    if (board != null) {
      LiveBoard.Published published = board.publish(name, number, text(next));
      if (published.number() != number || !published.limits().equals(text(next))) {
        apply(live, published); // another node's change won: this one is refused
        throw new IllegalStateException(
            "policy '" + name + "' was changed meanwhile to version " + published.number());
      }
    }
    replace(live, new Version(number, next));
    return live.current().version();
  }

  /**
   * Overrides the limits of policy {@code name} for one key: blocks it, exempts it, or gives it
   * {@code limits} of its own (as in configuration), for {@code ttl} or, if null, until removed. It
   * replaces the key's override if it has one. Over a shared store it is set there first, and every
   * node applies it at its next refresh.
   *
   * @throws IllegalArgumentException naming what is wrong: an unknown policy, an empty or too long
   *     key, limits given or missing for the kind, bad limits, or a ttl not above 0 or above {@link
   *     KeyOverride#MAX_TTL}
   */
  public synchronized KeyOverride override(
      String name, String key, KeyOverride.Kind kind, String limits, Duration ttl) {
    LivePolicy live = live(name);
    if (key == null || key.isEmpty() || key.length() > Limiter.MAX_KEY_LENGTH) {
      throw new IllegalArgumentException(
          "key: expected 1 to " + Limiter.MAX_KEY_LENGTH + " characters, was '" + key + "'");
    }
    long expiresAt = KeyOverride.expiresAt(clock.nanos(), ttl);
    Policy policy = live.current().version().policy();
    KeyOverride override;
    if (kind == KeyOverride.Kind.LIMITS) {
      if (limits == null || limits.isBlank()) {
        throw new IllegalArgumentException(
            "limits: a 'limits' override needs limits such as 100/s");
      }
      Policy own = validate(name, limits);
      override = new KeyOverride(kind, own, store.bind(own), expiresAt);
    } else {
      if (limits != null && !limits.isBlank()) {
        throw new IllegalArgumentException(
            "limits: only a 'limits' override has limits, was '"
                + limits
                + "' for "
                + kind.configName());
      }
      override = new KeyOverride(kind, policy, null, expiresAt);
    }
    if (board != null) {
      board.putOverride(
          name,
          key,
          kind.configName(),
          kind == KeyOverride.Kind.LIMITS ? text(override.policy()) : "",
          ttl == null ? 0 : Math.max(1, ttl.toNanos() / 1000));
    }
    Map<String, KeyOverride> next = liveOverrides(live);
    next.put(key, override);
    live.overrides(next);
    return override;
  }

  /** Removes the override of {@code key} under policy {@code name}; false if it had none. */
  public synchronized boolean removeOverride(String name, String key) {
    LivePolicy live = live(name);
    boolean shared = board != null && board.removeOverride(name, key);
    Map<String, KeyOverride> next = liveOverrides(live);
    boolean removed = next.remove(key) != null;
    live.overrides(next);
    return removed || shared;
  }

  /** The overrides of policy {@code name} that apply now, by key. */
  public synchronized Map<String, KeyOverride> overrides(String name) {
    return Map.copyOf(liveOverrides(live(name)));
  }

  /** The clock of the overrides' expiry. */
  public NanoClock clock() {
    return clock;
  }

  /** {@code live}'s overrides that have not ended, in a map of one's own. */
  private Map<String, KeyOverride> liveOverrides(LivePolicy live) {
    long now = clock.nanos();
    Map<String, KeyOverride> next = new TreeMap<>();
    live.overrides()
        .forEach(
            (k, o) -> {
              if (o.appliesAt(now)) {
                next.put(k, o);
              }
            });
    return next;
  }

  private LivePolicy live(String name) {
    LivePolicy live = policies.get(name);
    if (live == null) {
      throw new IllegalArgumentException(
          "no policy named '" + name + "'; the policies are " + new TreeSet<>(policies.keySet()));
    }
    return live;
  }

  /**
   * The next version of policy {@code name} with {@code limits}, checked but not applied.
   *
   * @throws IllegalArgumentException naming what is wrong: an unknown policy, or bad limits
   */
  public Policy validate(String name, String limits) {
    Policy now = live(name).current().version().policy();
    try {
      return new Policy(name, now.algorithm(), inCalendarOf(now, limits), now.failureMode());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("limits: " + e.getMessage(), e);
    }
  }

  /**
   * Applies the versions the store's board publishes that are newer than this node's: run on a
   * period, so that every node follows a change within that period. Nothing to do over a store that
   * is not shared.
   */
  public synchronized void refresh() {
    if (board == null) {
      return;
    }
    Map<String, LiveBoard.Published> published = board.read();
    for (Map.Entry<String, LiveBoard.Published> entry : published.entrySet()) {
      LivePolicy live = policies.get(entry.getKey());
      if (live != null) {
        apply(live, entry.getValue());
      }
    }
    Map<String, Map<String, LiveBoard.SharedOverride>> shared = board.readOverrides();
    long now = clock.nanos();
    for (Map.Entry<String, LivePolicy> entry : policies.entrySet()) {
      Map<String, KeyOverride> before = entry.getValue().overrides();
      Map<String, KeyOverride> next = new TreeMap<>();
      shared
          .getOrDefault(entry.getKey(), Map.of())
          .forEach(
              (key, o) -> {
                KeyOverride override = fromBoard(entry.getValue(), before.get(key), o, now);
                if (override != null) {
                  next.put(key, override);
                }
              });
      entry.getValue().overrides(next);
    }
  }

  /** A board's override as this node applies it; null if unreadable (logged). */
  private KeyOverride fromBoard(
      LivePolicy live, KeyOverride before, LiveBoard.SharedOverride shared, long now) {
    long expiresAt =
        shared.remainingMicros() < 0
            ? Long.MAX_VALUE
            : KeyOverride.endsAt(now, Duration.of(shared.remainingMicros(), ChronoUnit.MICROS));
    Policy policy = live.current().version().policy();
    try {
      KeyOverride.Kind kind = KeyOverride.Kind.fromConfigName(shared.kind());
      if (kind != KeyOverride.Kind.LIMITS) {
        return new KeyOverride(kind, policy, null, expiresAt);
      }
      List<Limit> limits = inCalendarOf(policy, shared.limits());
      if (before != null && before.bound() != null && before.policy().limits().equals(limits)) {
        return new KeyOverride(kind, before.policy(), before.bound(), expiresAt);
      }
      Policy own = new Policy(policy.name(), policy.algorithm(), limits, policy.failureMode());
      return new KeyOverride(kind, own, store.bind(own), expiresAt);
    } catch (IllegalArgumentException e) {
      LOG.log(
          Level.WARNING,
          "limiter: an override of policy {0} in the store is unreadable: {1}",
          new Object[] {LogText.quote(policy.name()), LogText.escape(e.getMessage())});
      return null;
    }
  }

  /** Replaces {@code live}'s version with {@code published}, if that is newer. */
  private void apply(LivePolicy live, LiveBoard.Published published) {
    Version current = live.current().version();
    if (published.number() <= current.number()) {
      return;
    }
    Policy now = current.policy();
    Policy next;
    try {
      next =
          new Policy(
              now.name(),
              now.algorithm(),
              inCalendarOf(now, published.limits()),
              now.failureMode());
    } catch (IllegalArgumentException e) {
      LOG.log(
          Level.WARNING,
          "limiter: policy {0} version {1} in the store is unreadable, kept version {2}: {3}",
          new Object[] {
            LogText.quote(now.name()),
            published.number(),
            current.number(),
            LogText.escape(e.getMessage())
          });
      return;
    }
    replace(live, new Version(published.number(), next));
  }

  private void replace(LivePolicy live, Version next) {
    PolicyStore bound = store.rebind(live.current().bound(), next.policy());
    live.replace(new LivePolicy.Current(next, bound));
  }

  /**
   * The limits of {@code policy} as configuration writes them, e.g. {@code 10/s burst=20, 1000/h}.
   */
  public static String text(Policy policy) {
    return String.join(", ", policy.limits().stream().map(Limit::toString).toList());
  }

  // The store's other calls, for callers that name the policy: the policy's current version.

  @Override
  public Decision decide(Policy policy, String key, long permits) {
    return bind(policy).decide(key, permits);
  }

  @Override
  public long tryAcquire(Policy policy, String key, long permits) {
    return bind(policy).tryAcquire(key, permits);
  }

  @Override
  public void adjust(Policy policy, String key, long delta) {
    bind(policy).adjust(key, delta);
  }

  @Override
  public Decision peek(Policy policy, String key) {
    return bind(policy).peek(key);
  }

  /** An upstream's block is the store's, whatever the policy's version. */
  @Override
  public long block(Policy policy, String key, long nanos) {
    return store.block(policy, key, nanos);
  }

  @Override
  public TimeSource timeSource() {
    return store.timeSource();
  }

  @Override
  public StoreHealth health() {
    return store.health();
  }

  /**
   * The limits of {@code text}, their calendar quotas in the zone and from the anchor day of {@code
   * policy}'s quotas, which the text does not say; for a policy without quotas, in its configured
   * {@code quota.time-zone} and {@code quota.anchor-day}.
   */
  private List<Limit> inCalendarOf(Policy policy, String text) {
    return calendarOf(policy).apply(Limit.parseAll(text));
  }
}
