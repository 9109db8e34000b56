package io.github.limiter.internal.live;

import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.log.LogText;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The live policies kept alike with a shared store's {@link LiveBoard}: what this node changes is
 * published there first, and what other nodes published is applied here, versions and key overrides
 * alike. Its callers hold the lock of the {@link PolicyVersions} they sync.
 */
final class BoardSync {

  private static final Logger LOG = Logger.getLogger(BoardSync.class.getName());

  private final LiveBoard board;
  private final RateLimitStore store;
  private final LiveCalendars calendars;
  private final NanoClock clock;

  BoardSync(LiveBoard board, RateLimitStore store, LiveCalendars calendars, NanoClock clock) {
    this.board = board;
    this.store = store;
    this.calendars = calendars;
    this.clock = clock;
  }

  /**
   * Gives {@code created}, a policy bound for the first time, the version and the overrides the
   * board publishes for it; if the store does not answer, it keeps its deployed limits (logged).
   */
  void adopt(LivePolicy created) {
    String name = created.current().version().policy().name();
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

  /**
   * Publishes {@code next} as version {@code number} of {@code live}'s policy.
   *
   * @throws IllegalStateException if another node's change won: {@code live} takes that one
   */
  void publish(LivePolicy live, long number, Policy next) {
    String name = next.name();
    String limits = PolicyVersion.text(next);
    LiveBoard.Published published = board.publish(name, number, limits);
    if (published.number() != number || !published.limits().equals(limits)) {
      apply(live, published); // another node's change won: this one is refused
      throw new IllegalStateException(
          "policy '" + name + "' was changed meanwhile to version " + published.number());
    }
  }

  /** Sets {@code override} of {@code key} under policy {@code name} on the board. */
  void publish(String name, String key, KeyOverride override, Duration ttl) {
    KeyOverride.Kind kind = override.kind();
    board.putOverride(
        name,
        key,
        kind.configName(),
        kind == KeyOverride.Kind.LIMITS ? PolicyVersion.text(override.policy()) : "",
        ttl == null ? 0 : Math.max(1, ttl.toNanos() / 1000));
  }

  /** Removes the override of {@code key} under policy {@code name} from the board. */
  boolean remove(String name, String key) {
    return board.removeOverride(name, key);
  }

  /**
   * Applies to {@code policies} the versions the board publishes that are newer than this node's,
   * and the overrides it holds now.
   */
  void follow(Map<String, LivePolicy> policies) {
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
      Policy own = calendars.withLimits(policy, shared.limits());
      if (before != null
          && before.bound() != null
          && before.policy().limits().equals(own.limits())) {
        return new KeyOverride(kind, before.policy(), before.bound(), expiresAt);
      }
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
    PolicyVersion current = live.current().version();
    if (published.number() <= current.number()) {
      return;
    }
    Policy now = current.policy();
    Policy next;
    try {
      next = calendars.withLimits(now, published.limits());
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
    live.advance(new PolicyVersion(published.number(), next));
  }
}
