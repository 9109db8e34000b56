package io.github.limiter.internal.config;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * Where a policy's calendar quotas take their time zone and the day their months start: fixed in
 * {@code quota.time-zone} and {@code quota.anchor-day}, or per request from a resolver ({@code
 * resolver:NAME}), because they are the customer's zone and billing day.
 *
 * @param zone the fixed zone; the fallback when the resolver answers nothing usable
 * @param zoneResolver the resolver that answers a request's zone, or null
 * @param anchorDay the fixed anchor day; the fallback of {@code anchorResolver}
 * @param anchorResolver the resolver that answers a request's anchor day (1-31), or null
 */
public record QuotaCalendar(
    ZoneId zone, String zoneResolver, int anchorDay, String anchorResolver) {

  /** UTC, months from the 1st: the default. */
  public static final QuotaCalendar DEFAULT = new QuotaCalendar(ZoneOffset.UTC, null, 1, null);

  private static final String RESOLVER = "resolver:";

  /** Whether a request's resolvers choose the zone or the anchor day. */
  public boolean perRequest() {
    return zoneResolver != null || anchorResolver != null;
  }

  /** {@code limits} with this calendar's fixed zone and anchor day on each quota. */
  public List<Limit> apply(List<Limit> limits) {
    return inCalendar(limits, zone, anchorDay);
  }

  /** {@code limits} with {@code zone} and {@code anchorDay} on each calendar quota. */
  public static List<Limit> inCalendar(List<Limit> limits, ZoneId zone, int anchorDay) {
    return limits.stream().map(l -> l.inCalendar(zone, anchorDay)).toList();
  }

  /**
   * {@code policy} with its calendar quotas in {@code zone} from {@code anchorDay}, under the same
   * name; {@code policy} itself when that changes nothing.
   */
  public static Policy inCalendar(Policy policy, ZoneId zone, int anchorDay) {
    List<Limit> limits = inCalendar(policy.limits(), zone, anchorDay);
    return limits.equals(policy.limits())
        ? policy
        : new Policy(policy.name(), policy.algorithm(), limits, policy.failureMode());
  }

  /** The zone a resolver answered, or the fixed zone when the answer is missing or no zone. */
  public ZoneId zoneOf(String answer) {
    if (answer == null || answer.isBlank()) {
      return zone;
    }
    try {
      return Limit.parseZone(answer);
    } catch (IllegalArgumentException e) {
      return zone;
    }
  }

  /** The anchor day a resolver answered, or the fixed one when missing or not 1 to 31. */
  public int anchorOf(String answer) {
    if (answer == null) {
      return anchorDay;
    }
    String trimmed = answer.trim();
    if (!trimmed.matches("\\d{1,2}")) {
      return anchorDay;
    }
    int day = Integer.parseInt(trimmed);
    return day >= 1 && day <= 31 ? day : anchorDay;
  }

  /** {@code quota.time-zone}: a zone or {@code resolver:NAME}. */
  record ZoneSetting(ZoneId zone, String resolver) {
    static ZoneSetting parse(String text) {
      String resolver = resolverName(text, "quota.time-zone");
      return resolver != null
          ? new ZoneSetting(ZoneOffset.UTC, resolver)
          : new ZoneSetting(Limit.parseZone(text), null);
    }
  }

  /** {@code quota.anchor-day}: 1 to 31 or {@code resolver:NAME}. */
  record AnchorSetting(int day, String resolver) {
    static AnchorSetting parse(String text) {
      String resolver = resolverName(text, "quota.anchor-day");
      if (resolver != null) {
        return new AnchorSetting(1, resolver);
      }
      String trimmed = text.trim();
      int day = trimmed.matches("\\d{1,2}") ? Integer.parseInt(trimmed) : 0;
      if (day < 1 || day > 31) {
        throw new IllegalArgumentException(
            "expected a day of the month from 1 to 31 (a shorter month starts on its last day) or"
                + " resolver:<name>, was '"
                + trimmed
                + "'");
      }
      return new AnchorSetting(day, null);
    }
  }

  /** The resolver name of {@code resolver:NAME}; null for any other text. */
  private static String resolverName(String text, String key) {
    String trimmed = text.trim();
    if (!trimmed.toLowerCase(Locale.ROOT).startsWith(RESOLVER)) {
      return null;
    }
    String name = trimmed.substring(RESOLVER.length()).trim();
    if (name.isEmpty()) {
      throw new IllegalArgumentException(
          "expected resolver:<name> with a name, was '" + trimmed + "'");
    }
    return name;
  }
}
