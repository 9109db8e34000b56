package io.github.limiter.tck;

import io.github.limiter.NanoClock;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to: set or advanced by the test, thread-safe.
 *
 * <p>Start it at a hostile origin ({@link #random(long)}, {@link #nearMaxValue()}, {@link
 * #negative()}) so that code comparing readings as {@code a > b} instead of {@code a - b > 0}, or
 * assuming readings start at zero, fails.
 */
public final class ManualClock implements NanoClock {

  /** How far below {@link Long#MAX_VALUE} {@link #nearMaxValue()} starts: tests cross the overflow. */
  public static final long NEAR_MAX_MARGIN = Duration.ofSeconds(10).toNanos();

  private final AtomicLong nanos;
  private final String origin;

  private ManualClock(long start, String origin) {
    this.nanos = new AtomicLong(start);
    this.origin = origin;
  }

  /** A clock reading {@code start}. */
  public static ManualClock at(long start) {
    return new ManualClock(start, "at " + start);
  }

  /** A clock at a random reading drawn from {@code seed}, so that a failure reproduces. */
  public static ManualClock random(long seed) {
    return new ManualClock(new Random(seed).nextLong(), "random(seed " + seed + ")");
  }

  /** A clock {@link #NEAR_MAX_MARGIN} (10 s) below {@link Long#MAX_VALUE}: readings overflow soon. */
  public static ManualClock nearMaxValue() {
    return new ManualClock(Long.MAX_VALUE - NEAR_MAX_MARGIN, "near Long.MAX_VALUE");
  }

  /** A clock five seconds below zero: readings cross zero soon. */
  public static ManualClock negative() {
    return new ManualClock(-Duration.ofSeconds(5).toNanos(), "negative");
  }

  @Override
  public long nanos() {
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
   * @throws IllegalArgumentException if {@code delta} is negative: a monotonic clock never goes back
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
