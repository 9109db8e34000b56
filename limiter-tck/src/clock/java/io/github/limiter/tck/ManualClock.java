package io.github.limiter.tck;

import io.github.limiter.NanoClock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to (or, if built with a tick, by that much on every reading):
 * set or advanced by the test, thread-safe. The one test clock of the project: its source root is
 * shared with limiter-api's tests, which cannot depend on this module (it depends on limiter-api).
 *
 * <p>Start it at a hostile origin ({@link #random(long)}, {@link #nearMaxValue()}, {@link
 * #negative()}, {@link #NEAR_MAX}, {@link #JUST_BELOW_ZERO}, {@link #NEGATIVE}) so that code
 * comparing readings as {@code a > b} instead of {@code a - b > 0}, or assuming readings start at
 * zero, fails.
 */
public final class ManualClock implements NanoClock {

  /**
   * How far below {@link Long#MAX_VALUE} {@link #nearMaxValue()} starts: tests cross the overflow.
   */
  public static final long NEAR_MAX_MARGIN = Duration.ofSeconds(10).toNanos();

  /** Ten minutes below {@link Long#MAX_VALUE}: a test that advances more than that wraps. */
  public static final long NEAR_MAX = Long.MAX_VALUE - Duration.ofMinutes(10).toNanos();

  /** One tick below zero. */
  public static final long JUST_BELOW_ZERO = -1;

  /** Ten minutes below zero: a test crosses zero. */
  public static final long NEGATIVE = -Duration.ofMinutes(10).toNanos();

  private final AtomicLong nanos;
  private final long tick;
  private final String origin;

  private ManualClock(long start, long tick, String origin) {
    this.nanos = new AtomicLong(start);
    this.tick = tick;
    this.origin = origin;
  }

  /** A clock reading {@code start}. */
  public static ManualClock at(long start) {
    return new ManualClock(start, 0, "at " + start);
  }

  /** A clock that starts at {@code start} and moves {@code tick} nanoseconds on every reading. */
  public static ManualClock ticking(long start, long tick) {
    return new ManualClock(start, tick, "at " + start + ", ticking " + tick);
  }

  /** A clock at a random reading drawn from {@code seed}, so that a failure reproduces. */
  public static ManualClock random(long seed) {
    return new ManualClock(new Random(seed).nextLong(), 0, "random(seed " + seed + ")");
  }

  /**
   * A clock {@link #NEAR_MAX_MARGIN} (10 s) below {@link Long#MAX_VALUE}: readings overflow soon.
   */
  public static ManualClock nearMaxValue() {
    return new ManualClock(Long.MAX_VALUE - NEAR_MAX_MARGIN, 0, "near Long.MAX_VALUE");
  }

  /** A clock five seconds below zero: readings cross zero soon. */
  public static ManualClock negative() {
    return new ManualClock(-Duration.ofSeconds(5).toNanos(), 0, "negative");
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

  /** Sets the reading. */
  public void set(long reading) {
    nanos.set(reading);
  }

  /**
   * Moves the clock forward by {@code delta} nanoseconds (wrapping past {@link Long#MAX_VALUE}, as
   * {@link System#nanoTime()} may) and returns the new reading.
   *
   * @throws IllegalArgumentException if {@code delta} is negative: a monotonic clock never goes
   *     back
   */
  public long advance(long delta) {
    if (delta < 0) {
      throw new IllegalArgumentException("delta must not be negative, was " + delta);
    }
    return nanos.addAndGet(delta);
  }

  /** Moves the clock forward by {@code delta}. */
  public long advance(Duration delta) {
    return advance(delta.toNanos());
  }

  @Override
  public String toString() {
    return "ManualClock[" + origin + ", now " + nanos.get() + "]";
  }
}
