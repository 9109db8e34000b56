package io.github.limiter.internal.admission;

import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.internal.config.QuotaCalendar;
import io.github.limiter.internal.log.LogText;
import java.time.ZoneId;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The versions of one rule set's policies in the calendars of requests' quota zones ({@code
 * quota.time-zone} and {@code quota.anchor-day} from a resolver), each bound once.
 */
final class RequestCalendars {

  /**
   * The most calendars (a policy's time zone and anchor day) a set keeps: a bound on memory that a
   * resolver answering ever new zones cannot lift (a live change of the limits adds none). Beyond
   * it a customer's quota keeps the deployed calendar, and the first time that happens is logged.
   */
  static final int MAX_CALENDARS = 1_000;

  private static final Logger LOG = Logger.getLogger(RequestCalendars.class.getName());

  /** A bound policy (by identity) in a time zone from an anchor day. */
  private record Calendar(PolicyLimiter bound, ZoneId zone, int anchorDay) {}

  /** Binds a policy's version in a calendar; null for a set that re-zones nothing. */
  private final Function<Policy, PolicyLimiter> bind;

  /** Per bound policy, zone and anchor day, its version there bound: see {@link #inCalendar}. */
  private final ConcurrentHashMap<Calendar, PolicyLimiter> calendars = new ConcurrentHashMap<>();

  private final AtomicBoolean toldCalendarsFull = new AtomicBoolean();

  RequestCalendars(Function<Policy, PolicyLimiter> bind) {
    this.bind = bind;
  }

  /**
   * {@code bound}'s policy with its calendar quotas in {@code zone} from {@code anchorDay}, bound:
   * a version of its own per zone and day, under the same name (so the same keys in a shared
   * store). Bound once per calendar: a live policy's version there follows the policy's live
   * versions (see {@code LiveStore#bind}). {@code bound} itself when that changes nothing, or when
   * {@link #MAX_CALENDARS} calendars are held already (logged once).
   */
  PolicyLimiter inCalendar(PolicyLimiter bound, ZoneId zone, int anchorDay) {
    // A calendar bound already answers before the policy is re-zoned: that is once per calendar.
    Calendar calendar = new Calendar(bound, zone, anchorDay);
    PolicyLimiter found = calendars.get(calendar);
    if (found != null) {
      return found;
    }
    Policy policy = bound.policy();
    Policy version = QuotaCalendar.inCalendar(policy, zone, anchorDay);
    if (bind == null || version == policy) {
      return bound;
    }
    if (calendars.size() >= MAX_CALENDARS) {
      if (toldCalendarsFull.compareAndSet(false, true)) {
        LOG.warning(
            () ->
                "Policy "
                    + LogText.quote(policy.name())
                    + " keeps its quotas in "
                    + MAX_CALENDARS
                    + " calendars (time zone and anchor day) already: requests in another one,"
                    + " first "
                    + zone
                    + " from day "
                    + anchorDay
                    + ", count their quota in the deployed calendar instead. A resolver of"
                    + " quota.time-zone or quota.anchor-day that answers fewer distinct values"
                    + " keeps every customer in their own.");
      }
      return bound;
    }
    return calendars.computeIfAbsent(calendar, c -> bind.apply(version));
  }
}
