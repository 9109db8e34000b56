package io.github.limiter.internal.insight;

import io.github.limiter.NanoClock;
import io.github.limiter.internal.config.TopKeysSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who is being limited: per policy, the keys with the most requests and the keys with the most
 * rejections over the current window and the one before it. Each list is a {@link SpaceSaving}
 * sketch of {@link #capacity()} keys per window, so memory is fixed whatever the number of keys: a
 * flood of new keys only displaces the smallest counts. Windows turn lazily, on the clock read by
 * each update, so nothing runs in the background.
 *
 * <p>Client keys are shown here only, to an operator: they never become metric tags.
 */
public final class TopKeys {

  /** Slots per listed key: a key with more than 1/(16·size) of a window's requests is counted. */
  static final int SLOTS_PER_KEY = 16;

  /**
   * Never fewer slots than this: a key with more than 1/256 of a window's requests (0.4%) is surely
   * counted, and a short list is still accurate.
   */
  static final int MIN_CAPACITY = 256;

  private final NanoClock clock;
  private final int size;
  private final int capacity;
  private final long windowNanos;
  private final long origin;

  /** Per policy name: names come from the configuration, never from a request. */
  private final Map<String, Windows> policies = new ConcurrentHashMap<>();

  public TopKeys(TopKeysSettings settings, NanoClock clock) {
    this.clock = clock;
    this.size = settings.size();
    this.capacity = Math.max(MIN_CAPACITY, SLOTS_PER_KEY * settings.size());
    this.windowNanos = settings.window().toNanos();
    this.origin = clock.nanos();
  }

  /** The keys each sketch counts at once: its memory bound. */
  public int capacity() {
    return capacity;
  }

  /** The length of one window: the lists cover the current one and the one before. */
  public Duration window() {
    return Duration.ofNanos(windowNanos);
  }

  /** How many keys each list shows. */
  public int size() {
    return size;
  }

  /**
   * Counts one request of {@code key} under {@code policy}, and whether that policy rejected it (a
   * dry-run policy's would-be rejection counts).
   */
  public void count(String policy, String key, boolean rejected) {
    Windows windows = policies.get(policy);
    if (windows == null) {
      windows = policies.computeIfAbsent(policy, name -> new Windows(capacity));
    }
    windows.count(epoch(clock.nanos()), key, rejected);
  }

  /** The names of the policies that counted a request. */
  public List<String> policies() {
    return List.copyOf(new TreeSet<>(policies.keySet()));
  }

  /**
   * The keys its sketches hold now, over every policy: at most {@code 4 * capacity()} per policy
   * (requests and rejections, of two windows).
   */
  int keysHeld() {
    int held = 0;
    for (Windows windows : policies.values()) {
      held += windows.held();
    }
    return held;
  }

  /** {@code policy}'s top keys now; empty lists if it counted no request. */
  public TopKeysView view(String policy) {
    long now = clock.nanos();
    long epoch = epoch(now);
    // Covered: from the previous window's start (or the start) until now.
    long windowStart = origin + epoch * windowNanos;
    long covered = epoch == 0 ? now - origin : now - (windowStart - windowNanos);
    Windows windows = policies.get(policy);
    if (windows == null) {
      return new TopKeysView(policy, Duration.ofNanos(covered), 0, 0, List.of(), List.of());
    }
    return windows.view(policy, epoch, Duration.ofNanos(covered), size);
  }

  /** The window {@code now} is in, counted from the first reading: overflow-safe. */
  private long epoch(long now) {
    return Math.max(0, (now - origin) / windowNanos);
  }

  /**
   * One policy's sketches: requests and rejections, of the current window and the previous. Its
   * lock guards them all.
   */
  private static final class Windows {
    private SpaceSaving requests;
    private SpaceSaving rejections;
    private SpaceSaving previousRequests;
    private SpaceSaving previousRejections;

    /** The window {@link #requests} and {@link #rejections} count. */
    private long current;

    Windows(int capacity) {
      requests = new SpaceSaving(capacity);
      rejections = new SpaceSaving(capacity);
      previousRequests = new SpaceSaving(capacity);
      previousRejections = new SpaceSaving(capacity);
    }

    synchronized void count(long epoch, String key, boolean rejected) {
      turn(epoch);
      requests.add(key, 1);
      if (rejected) {
        rejections.add(key, 1);
      }
    }

    synchronized int held() {
      return requests.size()
          + rejections.size()
          + previousRequests.size()
          + previousRejections.size();
    }

    synchronized TopKeysView view(String policy, long epoch, Duration covered, int size) {
      turn(epoch);
      return new TopKeysView(
          policy,
          covered,
          requests.total() + previousRequests.total(),
          rejections.total() + previousRejections.total(),
          merged(requests, previousRequests, size),
          merged(rejections, previousRejections, size));
    }

    /** Moves to window {@code epoch}: the current becomes the previous, or both are cleared. */
    private void turn(long epoch) {
      if (epoch <= current) {
        return; // a reading taken before another thread turned the window: counted in the new one
      }
      if (epoch == current + 1) {
        SpaceSaving spare = previousRequests;
        previousRequests = requests;
        requests = spare;
        spare = previousRejections;
        previousRejections = rejections;
        rejections = spare;
      } else {
        previousRequests.clear();
        previousRejections.clear();
      }
      requests.clear();
      rejections.clear();
      current = epoch;
    }
  }

  /**
   * The {@code size} largest of two sketches summed: a key one of them does not count may have had
   * up to its floor there, which is added to its count and its error (mergeable summaries).
   */
  static List<KeyCount> merged(SpaceSaving a, SpaceSaving b, int size) {
    long floorA = a.floor();
    long floorB = b.floor();
    Map<String, KeyCount> fromB = new HashMap<>();
    for (KeyCount count : b.counted()) {
      fromB.put(count.key(), count);
    }
    List<KeyCount> all = new ArrayList<>();
    for (KeyCount count : a.counted()) {
      KeyCount other = fromB.remove(count.key());
      all.add(
          other == null
              ? new KeyCount(count.key(), count.count() + floorB, count.error() + floorB)
              : new KeyCount(
                  count.key(), count.count() + other.count(), count.error() + other.error()));
    }
    for (KeyCount other : fromB.values()) {
      all.add(new KeyCount(other.key(), other.count() + floorA, other.error() + floorA));
    }
    all.sort(KeyCount.LARGEST_FIRST);
    return List.copyOf(all.subList(0, Math.min(size, all.size())));
  }
}
