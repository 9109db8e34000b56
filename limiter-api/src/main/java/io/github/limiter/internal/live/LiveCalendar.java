package io.github.limiter.internal.live;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.QuotaCalendar;
import java.time.ZoneId;

/**
 * A live policy in the calendar of a request's quota zone ({@code quota.time-zone} and {@code
 * quota.anchor-day} from a resolver): the policy's current version, its calendar quotas in that
 * zone from that anchor day. Each call reads the live version; when it is a new one, this
 * calendar's handle is rebound to it, re-zoned, and the keys keep their state by the store's rule.
 * The live policy's key overrides apply here as there.
 */
final class LiveCalendar implements PolicyStore {

  /**
   * A version of the live policy and the store's handle of it in this calendar.
   *
   * @param number the live version's number
   * @param bound the store's handle of that version, re-zoned
   */
  private record Zoned(long number, PolicyStore bound) {}

  private final LivePolicy live;
  private final ZoneId zone;
  private final int anchorDay;
  private volatile Zoned zoned;

  LiveCalendar(LivePolicy live, RateLimitStore store, ZoneId zone, int anchorDay) {
    this.live = live;
    this.zone = zone;
    this.anchorDay = anchorDay;
    PolicyVersion now = live.current().version();
    this.zoned = new Zoned(now.number(), store.bind(inCalendar(now)));
  }

  private Policy inCalendar(PolicyVersion version) {
    return QuotaCalendar.inCalendar(version.policy(), zone, anchorDay);
  }

  /** The handle of the live policy's current version in this calendar. */
  PolicyStore bound() {
    Zoned mine = zoned;
    PolicyVersion now = live.current().version();
    return mine.number() >= now.number() ? mine.bound() : follow(now);
  }

  private synchronized PolicyStore follow(PolicyVersion now) {
    Zoned mine = zoned;
    if (mine.number() < now.number()) {
      mine = new Zoned(now.number(), live.versions().rebind(mine.bound(), inCalendar(now)));
      zoned = mine;
    }
    return mine.bound();
  }

  @Override
  public Policy policy() {
    return bound().policy();
  }

  @Override
  public Decision decide(String key, long permits) {
    return live.decide(bound(), key, permits);
  }

  @Override
  public long tryAcquire(String key, long permits) {
    return live.tryAcquire(bound(), key, permits);
  }

  @Override
  public void adjust(String key, long delta) {
    live.adjust(bound(), key, delta);
  }
}
