package io.github.limiter.internal.live;

import io.github.limiter.NanoClock;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.LimiterConfig;
import java.util.Objects;

/**
 * The policies' live limits over one store, as parts: their {@link PolicyVersions versions} (with
 * the change, and the sync through a shared store), the keys' {@link KeyOverrides overrides}, and
 * the {@link LiveStore store} that adapters bind their policies through. The calendars of the
 * policies' quotas ({@link LiveCalendars}) serve all three.
 */
public final class LiveLimits implements AutoCloseable {

  private final PolicyVersions policies;
  private final KeyOverrides overrides;
  private final LiveStore store;
  private final LiveCalendars calendars;

  /** Live limits over {@code store}, shared through it if it offers a {@link LiveBoard}. */
  public LiveLimits(RateLimitStore store) {
    this(store, NanoClock.system());
  }

  /** As {@link #LiveLimits(RateLimitStore)}, with {@code clock} timing the overrides' expiry. */
  public LiveLimits(RateLimitStore store, NanoClock clock) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(clock, "clock");
    this.calendars = new LiveCalendars(store);
    this.policies = new PolicyVersions(store, calendars, clock);
    this.overrides = new KeyOverrides(policies, store, clock);
    this.store = new LiveStore(store, policies, calendars);
  }

  /**
   * Live limits over {@code store} that, over a shared store, follow the versions it publishes
   * every {@link PolicyVersions#REFRESH_PERIOD} until {@link #close}.
   */
  public static LiveLimits open(RateLimitStore store) {
    LiveLimits live = new LiveLimits(store);
    live.policies.follow();
    return live;
  }

  /**
   * Learns the calendar of every policy of {@code config} ({@code quota.time-zone} and {@code
   * quota.anchor-day}): a quota added live to a policy that had none counts in it, not in UTC.
   */
  public LiveLimits inCalendarsOf(LimiterConfig config) {
    calendars.learn(config);
    return this;
  }

  /** The policies' versions, and their change. */
  public PolicyVersions policies() {
    return policies;
  }

  /** The keys' overrides. */
  public KeyOverrides overrides() {
    return overrides;
  }

  /** The store that decides under the live versions and overrides. */
  public LiveStore store() {
    return store;
  }

  /** Stops following the store's versions; the store stays open. */
  @Override
  public void close() {
    policies.close();
  }
}
