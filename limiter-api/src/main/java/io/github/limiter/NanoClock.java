package io.github.limiter;

/**
 * The time seam: a source of nanoseconds from an arbitrary origin.
 *
 * <p>Only differences between two readings mean anything, so compare readings overflow-safely as
 * {@code (a - b) > 0}, never as {@code a > b}. Tests and the replay tool drive time through their
 * own implementation; production code uses {@link #system()}.
 */
@FunctionalInterface
public interface NanoClock {

  /** Returns the current reading in nanoseconds. */
  long nanos();

  /** The JVM's monotonic clock, {@link System#nanoTime()}: immune to wall-clock jumps. */
  static NanoClock system() {
    return SystemClock.MONOTONIC;
  }
}
