package io.github.limiter.internal.live;

import io.github.limiter.LiveVersions;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The policies' versions: a policy is a versioned value, and a change replaces its version with the
 * next one, never edits one in place. Each key keeps its state by its algorithm's rule ({@link
 * LiveVersions#rebind}), over a store that offers that view; over another store, limits do not
 * change while the application runs.
 *
 * <p>Over a store that offers a {@link LiveBoard} (Redis; see {@link RateLimitStore#view}), a
 * change is published there first, with its version number, and {@link #refresh} applies what other
 * nodes published ({@link BoardSync}): every node, and a node that starts later, decides under the
 * newest version. Over another store, a change is for this node only.
 */
public final class PolicyVersions implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(PolicyVersions.class.getName());

  /** How often the versions a shared store publishes are read: a change reaches every node. */
  public static final Duration REFRESH_PERIOD = Duration.ofSeconds(1);

  private final RateLimitStore store;

  /** The store's {@link LiveVersions}, or null if it cannot change limits while it runs. */
  private final LiveVersions rebinding;

  private final LiveCalendars calendars;
  private final NanoClock clock;

  /** The sync with the store's board; null over a store that is not shared. */
  private final BoardSync sync;

  private final Map<String, LivePolicy> policies = new ConcurrentHashMap<>();
  private ScheduledExecutorService refresher;

  PolicyVersions(RateLimitStore store, LiveCalendars calendars, NanoClock clock) {
    this.store = store;
    this.rebinding = store.view(LiveVersions.class).orElse(null);
    this.calendars = calendars;
    this.clock = clock;
    LiveBoard board = store.view(LiveBoard.class).orElse(null);
    this.sync = board == null ? null : new BoardSync(board, store, calendars, clock);
  }

  /** Over a shared store, follows the versions it publishes every {@link #REFRESH_PERIOD}. */
  void follow() {
    if (sync != null) {
      refresher = Periodic.every(REFRESH_PERIOD, "limiter-live-limits", this::refreshQuietly);
    }
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
    return sync != null;
  }

  /** The sync with the store's board, for the overrides; null over a store that is not shared. */
  BoardSync sync() {
    return sync;
  }

  /**
   * The live policy of {@code policy}'s name: the first policy bound under a name is its version 0,
   * or the version the store's board publishes; a later bind of that name finds the same one.
   */
  LivePolicy bind(Policy policy) {
    LivePolicy live = policies.get(policy.name());
    return live != null ? live : first(policy);
  }

  /** The live policy of the first policy bound under its name. */
  private LivePolicy first(Policy policy) {
    synchronized (this) {
      return policies.computeIfAbsent(
          policy.name(),
          name -> {
            LivePolicy created =
                new LivePolicy(
                    new LivePolicy.Current(new PolicyVersion(0, policy), store.bind(policy)),
                    clock,
                    rebinding);
            if (sync != null) {
              sync.adopt(created);
            }
            return created;
          });
    }
  }

  /** The current version of every bound policy, by name. */
  public List<PolicyVersion> versions() {
    List<PolicyVersion> versions = new ArrayList<>();
    for (LivePolicy live : policies.values()) {
      versions.add(live.current().version());
    }
    versions.sort(Comparator.comparing(v -> v.policy().name()));
    return versions;
  }

  /** The current version of the policy {@code name}, if it is bound. */
  public Optional<PolicyVersion> version(String name) {
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
  public synchronized PolicyVersion change(String name, String limits) {
    LivePolicy live = live(name);
    Policy next = validate(name, limits);
    if (rebinding == null) {
      throw new UnsupportedOperationException(
          store.getClass().getSimpleName() + " cannot change a policy's limits while it runs");
    }
    long number = live.current().version().number() + 1;
    if (sync != null) {
      sync.publish(live, number, next);
    }
    live.advance(new PolicyVersion(number, next));
    return live.current().version();
  }

  /**
   * The next version of policy {@code name} with {@code limits}, checked but not applied.
   *
   * @throws IllegalArgumentException naming what is wrong: an unknown policy, or bad limits
   */
  public Policy validate(String name, String limits) {
    Policy now = live(name).current().version().policy();
    try {
      return calendars.withLimits(now, limits);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("limits: " + e.getMessage(), e);
    }
  }

  /**
   * Applies the versions and the overrides the store's board publishes that are newer than this
   * node's: run on a period, so that every node follows a change within that period. Nothing to do
   * over a store that is not shared.
   */
  public synchronized void refresh() {
    if (sync != null) {
      sync.follow(policies);
    }
  }

  /**
   * The live policy {@code name}.
   *
   * @throws IllegalArgumentException naming the policies there are, if none is named so
   */
  LivePolicy live(String name) {
    LivePolicy live = policies.get(name);
    if (live == null) {
      throw new IllegalArgumentException(
          "no policy named '" + name + "'; the policies are " + new TreeSet<>(policies.keySet()));
    }
    return live;
  }
}
