package io.github.limiter.internal.live;

import io.github.limiter.Decision;
import io.github.limiter.LiveVersions;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One policy as the adapters bind it: every call goes to the store's handle of its current version,
 * read once per call, so that a decision is made under one version, old or new, never a mix.
 */
final class LivePolicy implements PolicyStore {

  /** A version and the store's handle of it. */
  record Current(PolicyVersion version, PolicyStore bound) {}

  private volatile Current current;

  /** The keys' overrides, replaced whole; empty (the usual case) costs one read per decision. */
  private volatile Map<String, KeyOverride> overrides = Map.of();

  private final NanoClock clock;

  /** The store's view that rebinds a version; null over a store that cannot change limits. */
  private final LiveVersions versions;

  /** A time zone and anchor day of calendar quotas. */
  private record Calendar(ZoneId zone, int anchorDay) {}

  /** This policy's handles in the calendars of requests' quota zones: see {@link #inCalendar}. */
  private final Map<Calendar, PolicyStore> calendars = new ConcurrentHashMap<>();

  LivePolicy(Current first, NanoClock clock, LiveVersions versions) {
    this.current = first;
    this.clock = clock;
    this.versions = versions;
  }

  /** The store's view that rebinds this policy's versions, or null. */
  LiveVersions versions() {
    return versions;
  }

  Map<String, KeyOverride> overrides() {
    return overrides;
  }

  /** Called under the lock of the versions only. */
  void overrides(Map<String, KeyOverride> next) {
    this.overrides = Map.copyOf(next);
  }

  /** The override of {@code key} that applies now, or null. */
  private KeyOverride override(String key, long[] now) {
    Map<String, KeyOverride> all = overrides;
    if (all.isEmpty()) {
      return null;
    }
    KeyOverride found = all.get(key);
    if (found == null) {
      return null;
    }
    now[0] = clock.nanos();
    return found.appliesAt(now[0]) ? found : null;
  }

  Current current() {
    return current;
  }

  /**
   * Replaces the current version with {@code next}, rebound by the store from the current one so
   * that every key keeps its state. Called under the lock of the versions only, so that versions
   * never go back.
   */
  void advance(PolicyVersion next) {
    this.current = new Current(next, versions.rebind(current.bound(), next.policy()));
  }

  @Override
  public Policy policy() {
    return current.version().policy();
  }

  @Override
  public Decision decide(String key, long permits) {
    return decide(current.bound(), key, permits);
  }

  @Override
  public long tryAcquire(String key, long permits) {
    return tryAcquire(current.bound(), key, permits);
  }

  @Override
  public void adjust(String key, long delta) {
    adjust(current.bound(), key, delta);
  }

  /**
   * The handle of this policy in the calendar {@code zone} from {@code anchorDay}: made by {@code
   * make} on the first call, the same one after.
   */
  PolicyStore inCalendar(ZoneId zone, int anchorDay, Supplier<PolicyStore> make) {
    return calendars.computeIfAbsent(new Calendar(zone, anchorDay), c -> make.get());
  }

  // A key's decision, under this policy's overrides, else through {@code under}: the handle of
  // the current version, or of a calendar's version of it (LiveCalendar).

  Decision decide(PolicyStore under, String key, long permits) {
    if (!overrides.isEmpty()) {
      long[] now = new long[1];
      KeyOverride override = override(key, now);
      if (override != null) {
        return override.decide(key, permits, now[0]);
      }
    }
    return under.decide(key, permits);
  }

  long tryAcquire(PolicyStore under, String key, long permits) {
    if (!overrides.isEmpty()) {
      long[] now = new long[1];
      KeyOverride override = override(key, now);
      if (override != null) {
        Decision decision = override.decide(key, permits, now[0]);
        return decision.isAllowed() ? 0 : Math.max(1, decision.retryAfterNanos());
      }
    }
    return under.tryAcquire(key, permits);
  }

  /** A key under an override settles there: its own limits, or nothing for block and exempt. */
  void adjust(PolicyStore under, String key, long delta) {
    if (!overrides.isEmpty()) {
      KeyOverride override = override(key, new long[1]);
      if (override != null) {
        if (override.bound() != null) {
          override.bound().adjust(key, delta);
        }
        return;
      }
    }
    under.adjust(key, delta);
  }
}
