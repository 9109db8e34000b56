package io.github.limiter.tck.redis;

/**
 * Real waiting, for tests against real processes (a server starting, a failover, a load loop).
 * Algorithm tests never wait: they use {@link io.github.limiter.tck.ManualClock}.
 */
public final class Pause {

  private Pause() {}

  /**
   * Sleeps {@code millis} milliseconds.
   *
   * @throws IllegalStateException if interrupted, with the interrupt flag set again
   */
  public static void millis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while pausing " + millis + " ms", e);
    }
  }
}
