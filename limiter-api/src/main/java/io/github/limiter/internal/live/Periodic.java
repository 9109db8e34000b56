package io.github.limiter.internal.live;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The daemon threads of the live parts, each running one task on a period until shut down. */
final class Periodic {

  private Periodic() {}

  /**
   * Runs {@code task} every {@code period}, first after one period, on a daemon thread named {@code
   * name}; {@link ScheduledExecutorService#shutdownNow} stops it.
   */
  static ScheduledExecutorService every(Duration period, String name, Runnable task) {
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, name);
              thread.setDaemon(true);
              return thread;
            });
    long millis = period.toMillis();
    scheduler.scheduleWithFixedDelay(task, millis, millis, MILLISECONDS);
    return scheduler;
  }
}
