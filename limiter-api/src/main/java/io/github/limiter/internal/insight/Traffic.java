package io.github.limiter.internal.insight;

import io.github.limiter.NanoClock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Each policy's admitted and rejected requests per second over the last {@link #SECONDS} seconds,
 * for the console's charts. Memory is fixed: a ring of two counters per second per policy. A count
 * is one compare-and-set, without lock: each slot holds its second's number in its high half and
 * the count in its low half, so that the first count of a new second replaces what the slot held
 * 300 seconds earlier in the same step. Seconds turn on the clock read by each count, so nothing
 * runs in the background.
 */
public final class Traffic {

  /** How far back the counts go: five minutes. */
  public static final int SECONDS = 300;

  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final long COUNT = 0xFFFF_FFFFL;

  /**
   * One policy's counts over {@link #SECONDS} seconds, the oldest first and the current second
   * (still counting) last.
   */
  public record Series(long[] admitted, long[] rejected) {}

  private final NanoClock clock;
  private final long origin;

  /** Per policy name: names come from the configuration, never from a request. */
  private final Map<String, AtomicLongArray> policies = new ConcurrentHashMap<>();

  public Traffic(NanoClock clock) {
    this.clock = clock;
    this.origin = clock.nanos();
  }

  /** Counts one request that {@code policy} admitted, or rejected. */
  public void count(String policy, boolean rejected) {
    AtomicLongArray ring = policies.get(policy);
    if (ring == null) {
      ring = policies.computeIfAbsent(policy, name -> new AtomicLongArray(2 * SECONDS));
    }
    long second = second();
    int slot = (int) (second % SECONDS) * 2 + (rejected ? 1 : 0);
    long tag = second << 32;
    long held;
    long next;
    do {
      held = ring.get(slot);
      next = (held & ~COUNT) == tag ? held + 1 : tag | 1;
    } while (!ring.compareAndSet(slot, held, next));
  }

  /** {@code policy}'s counts up to now; zeros if it counted no request. */
  public Series series(String policy) {
    long[] admitted = new long[SECONDS];
    long[] rejected = new long[SECONDS];
    AtomicLongArray ring = policies.get(policy);
    if (ring != null) {
      long now = second();
      for (int i = 0; i < SECONDS; i++) {
        long second = now - (SECONDS - 1) + i;
        if (second >= 0) {
          int slot = (int) (second % SECONDS) * 2;
          admitted[i] = countOf(ring.get(slot), second);
          rejected[i] = countOf(ring.get(slot + 1), second);
        }
      }
    }
    return new Series(admitted, rejected);
  }

  private static long countOf(long held, long second) {
    return (held & ~COUNT) == second << 32 ? held & COUNT : 0;
  }

  /** The seconds since this began counting: overflow-safe whatever the clock's origin. */
  private long second() {
    return Math.max(0, (clock.nanos() - origin) / NANOS_PER_SECOND);
  }
}
