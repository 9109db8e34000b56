package io.github.limiter.internal.live;

import io.github.limiter.Limiter;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The keys' overrides of the live policies: an operator blocks a key, exempts it, or gives it
 * limits of its own, for a time or until removed. Over a shared store an override is set on the
 * store's board first, and every node applies it at its next refresh ({@link BoardSync}). Edits
 * hold the lock of the {@link PolicyVersions}, as a refresh does.
 */
public final class KeyOverrides {

  private final PolicyVersions versions;
  private final RateLimitStore store;
  private final NanoClock clock;

  KeyOverrides(PolicyVersions versions, RateLimitStore store, NanoClock clock) {
    this.versions = versions;
    this.store = store;
    this.clock = clock;
  }

  /**
   * Overrides the limits of policy {@code name} for one key: blocks it, exempts it, or gives it
   * {@code limits} of its own (as in configuration), for {@code ttl} or, if null, until removed. It
   * replaces the key's override if it has one.
   *
   * @throws IllegalArgumentException naming what is wrong: an unknown policy, an empty or too long
   *     key, limits given or missing for the kind, bad limits, or a ttl not above 0 or above {@link
   *     KeyOverride#MAX_TTL}
   */
  public KeyOverride set(
      String name, String key, KeyOverride.Kind kind, String limits, Duration ttl) {
    synchronized (versions) {
      LivePolicy live = versions.live(name);
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
        Policy own = versions.validate(name, limits);
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
      if (versions.sync() != null) {
        versions.sync().publish(name, key, override, ttl);
      }
      Map<String, KeyOverride> next = applying(live);
      next.put(key, override);
      live.overrides(next);
      return override;
    }
  }

  /** Removes the override of {@code key} under policy {@code name}; false if it had none. */
  public boolean remove(String name, String key) {
    synchronized (versions) {
      LivePolicy live = versions.live(name);
      boolean shared = versions.sync() != null && versions.sync().remove(name, key);
      Map<String, KeyOverride> next = applying(live);
      boolean removed = next.remove(key) != null;
      live.overrides(next);
      return removed || shared;
    }
  }

  /** The overrides of policy {@code name} that apply now, by key. */
  public Map<String, KeyOverride> of(String name) {
    synchronized (versions) {
      return Map.copyOf(applying(versions.live(name)));
    }
  }

  /** The clock of the overrides' expiry. */
  public NanoClock clock() {
    return clock;
  }

  /** {@code live}'s overrides that have not ended, in a map of one's own. */
  private Map<String, KeyOverride> applying(LivePolicy live) {
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
}
