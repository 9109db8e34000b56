package io.github.limiter.internal.admission;

import io.github.limiter.RequestView;
import io.github.limiter.internal.config.QuotaCalendar;
import java.time.ZoneId;

/**
 * A request's time zone and anchor day for its policy's calendar quotas, from the resolvers that
 * {@code quota.time-zone} and {@code quota.anchor-day} name (the customer's zone and billing day).
 * A resolver that answers nothing usable, or throws, gives the configured fallback: a quota never
 * fails a request.
 *
 * @param calendar the policy's quota settings
 * @param zone the reader of the zone, or null when it is fixed
 * @param anchor the reader of the anchor day, or null when it is fixed
 */
public record QuotaReader(QuotaCalendar calendar, RequestReader zone, RequestReader anchor) {

  public ZoneId zoneOf(RequestView request) {
    return zone == null ? calendar.zone() : calendar.zoneOf(read(zone, request));
  }

  public int anchorOf(RequestView request) {
    return anchor == null ? calendar.anchorDay() : calendar.anchorOf(read(anchor, request));
  }

  private static String read(RequestReader reader, RequestView request) {
    try {
      return reader.read(request);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
