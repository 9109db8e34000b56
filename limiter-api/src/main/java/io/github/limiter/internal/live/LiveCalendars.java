package io.github.limiter.internal.live;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.QuotaCalendar;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The calendars of the live policies' quotas: the zone and anchor day a change's limits count in
 * (the text of a change does not say them), and the re-zoning of a live policy for a request whose
 * quota zone is another ({@link LiveCalendar}). The admission step re-zones a request's policy
 * ({@code PolicySet#inCalendar}); binding that version here keeps it live.
 */
final class LiveCalendars {

  private final RateLimitStore store;

  /** The calendars of the policies' quotas as configured, by name: see {@link #learn}. */
  private final Map<String, QuotaCalendar> configured = new ConcurrentHashMap<>();

  LiveCalendars(RateLimitStore store) {
    this.store = store;
  }

  /**
   * Learns the calendar of every policy of {@code config} ({@code quota.time-zone} and {@code
   * quota.anchor-day}; a resolver's fallback when they come from one), plans' policies included: a
   * quota added live to a policy that had none counts in it, not in UTC.
   */
  void learn(LimiterConfig config) {
    for (PolicyConfig policy : config.policies().values()) {
      configured.put(policy.name(), policy.quota());
      for (Policy plan : policy.plans().byName().values()) {
        configured.put(plan.name(), policy.quota());
      }
    }
  }

  /**
   * {@code policy} with the limits of {@code text} (as in configuration), keeping its name,
   * algorithm and failure mode: its calendar quotas in the zone and from the anchor day of {@code
   * policy}'s quotas; for a policy without quotas, in its configured {@code quota.time-zone} and
   * {@code quota.anchor-day}.
   *
   * @throws IllegalArgumentException if {@code text} is not limits
   */
  Policy withLimits(Policy policy, String text) {
    return new Policy(
        policy.name(),
        policy.algorithm(),
        calendarOf(policy).apply(Limit.parseAll(text)),
        policy.failureMode());
  }

  /**
   * {@code live}, or its handle in the calendar of {@code policy}'s quotas (a request's quota zone
   * and anchor day) when {@code policy} keeps the live algorithm and failure mode and its quotas
   * are in a calendar other than the live version's: the live versions decide there, re-zoned, and
   * the live overrides apply. {@code policy}'s limits are not compared, as no later bind of a name
   * compares them: a caller may have re-zoned a version that a change has replaced since.
   */
  PolicyStore inCalendarOfQuotas(LivePolicy live, Policy policy) {
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
   * version without quotas, the one configured for it (see {@link #learn}).
   */
  private QuotaCalendar calendarOf(Policy policy) {
    Limit quota = quota(policy);
    return quota == null
        ? configured.getOrDefault(policy.name(), QuotaCalendar.DEFAULT)
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
}
