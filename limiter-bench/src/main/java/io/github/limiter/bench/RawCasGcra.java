package io.github.limiter.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor for a lock-free per-key decision: GCRA on one {@link AtomicLong}, answering only yes or
 * no. Nothing is allocated and nothing but the boolean is computed, so a real limiter, which also
 * reports remaining permits and retry-after, can at best approach it.
 */
final class RawCasGcra {

  private final long interval;

  /** How far ahead of now the theoretical arrival time may run: burst emission intervals. */
  private final long horizon;

  private final AtomicLong tat;

  /**
   * @param intervalNanos the emission interval 1/r
   * @param burst how many requests may arrive at once
   */
  RawCasGcra(long intervalNanos, long burst, long now) {
    if (intervalNanos < 1 || burst < 1) {
      throw new IllegalArgumentException(
          "intervalNanos and burst must be at least 1, were " + intervalNanos + " and " + burst);
    }
    this.interval = intervalNanos;
    this.horizon = Math.multiplyExact(intervalNanos, burst);
    this.tat = new AtomicLong(now);
  }

  RawCasGcra(long intervalNanos, long burst) {
    this(intervalNanos, burst, System.nanoTime());
  }

  boolean tryAcquire() {
    return tryAcquire(System.nanoTime());
  }

  boolean tryAcquire(long now) {
    for (; ; ) {
      long current = tat.get();
      long next = (current - now > 0 ? current : now) + interval;
      if (next - now > horizon) {
        return false;
      }
      if (tat.compareAndSet(current, next)) {
        return true;
      }
    }
  }
}
