package io.github.limiter;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test clock that moves only when told to (or, if built with a tick, by that much on every
 * reading). Thread-safe.
 *
 * <p>Start it at a hostile origin so that code comparing readings as {@code a > b} instead of
 * {@code a - b > 0}, or assuming readings start at zero, fails: {@link #NEAR_MAX} (readings wrap
 * past {@link Long#MAX_VALUE} within ten minutes), {@link #JUST_BELOW_ZERO}, {@link #NEGATIVE}, or a
 * random reading.
 */
public final class ManualClock implements NanoClock {

  /** Ten minutes below {@link Long#MAX_VALUE}: a test that advances more than that wraps. */
  public static final long NEAR_MAX = Long.MAX_VALUE - Duration.ofMinutes(10).toNanos();
  /** One tick below zero. */
  public static final long JUST_BELOW_ZERO = -1;
  /** Ten minutes below zero: a test crosses zero. */
  public static final long NEGATIVE = -Duration.ofMinutes(10).toNanos();

  private final AtomicLong nanos;
  private final long tick;

  private ManualClock(long start, long tick) {
    this.nanos = new AtomicLong(start);
    this.tick = tick;
  }

  /** A clock reading {@code start} until moved. */
  public static ManualClock at(long start) {
    return new ManualClock(start, 0);
  }

  /** A clock that starts at {@code start} and moves {@code tick} nanoseconds on every reading. */
  public static ManualClock ticking(long start, long tick) {
    return new ManualClock(start, tick);
  }

  /** The hostile origins, plus one random reading drawn from {@code seed}. */
  public static List<Long> hostileOrigins(long seed) {
    return List.of(NEAR_MAX, JUST_BELOW_ZERO, NEGATIVE, new Random(seed).nextLong());
  }

  @Override
  public long nanos() {
    return tick == 0 ? nanos.get() : nanos.getAndAdd(tick);
  }

  /** The current reading, without ticking. */
  public long peek() {
    return nanos.get();
  }

  /** Moves forward by {@code delta} ns, wrapping past {@link Long#MAX_VALUE}; returns the new reading. */
  public long advance(long delta) {
    if (delta < 0) {
      throw new IllegalArgumentException("a monotonic clock never goes back, delta was " + delta);
    }
    return nanos.addAndGet(delta);
  }

  public long advance(Duration delta) {
    return advance(delta.toNanos());
  }

  @Override
  public String toString() {
    return "ManualClock[" + nanos.get() + "]";
  }
}
