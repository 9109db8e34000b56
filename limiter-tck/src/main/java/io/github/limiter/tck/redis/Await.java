package io.github.limiter.tck.redis;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A bounded wait for an event of a real process: a server that answers, a replica promoted, a key
 * expired in Redis, a line logged by a store's background thread. It reads the event itself, a few
 * milliseconds apart, and returns as soon as it has happened; it is never a pause of a fixed
 * length. Algorithm tests never wait: they use {@link io.github.limiter.tck.ManualClock}.
 */
public final class Await {

  /** How long between two readings of the event. */
  private static final long POLL_NANOS = Duration.ofMillis(5).toNanos();

  private Await() {}

  /**
   * Waits until {@code event} is true.
   *
   * @throws AssertionError naming {@code what} if it is not within {@code within}
   */
  public static void until(String what, Duration within, BooleanSupplier event) {
    until(() -> what, within, event);
  }

  /**
   * Waits until {@code event} is true.
   *
   * @throws AssertionError with the text of {@code what}, read at the end, if it is not within
   *     {@code within}
   */
  public static void until(Supplier<String> what, Duration within, BooleanSupplier event) {
    if (!within(within, event)) {
      throw new AssertionError(what.get() + ": not within " + within);
    }
  }

  /**
   * Whether {@code event} became true within {@code within}: for a test that proves an event does
   * not happen in that time.
   */
  public static boolean within(Duration within, BooleanSupplier event) {
    long deadline = System.nanoTime() + within.toNanos();
    while (!event.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      LockSupport.parkNanos(POLL_NANOS);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting");
      }
    }
    return true;
  }
}
