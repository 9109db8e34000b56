package io.github.limiter.outbound;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The safety net behind the clients' own ends of a call: a daemon thread, started with the first
 * call that holds a concurrency permit, asks every second each outbound policy with such calls to
 * give back those past its {@code max-call-time}. Each policy measures on its own clock; the thread
 * only sets the pace.
 */
final class OverdueCalls implements AutoCloseable {

  private final Set<OutboundLimiter> watched = ConcurrentHashMap.newKeySet();
  private ScheduledExecutorService sweeper;
  private boolean closed;

  /** Watches {@code limiter}'s open calls from now on. */
  void watch(OutboundLimiter limiter) {
    if (!watched.contains(limiter) && watched.add(limiter)) {
      start();
    }
  }

  /** Gives back the permits of every overdue call, once. */
  void sweep() {
    for (OutboundLimiter limiter : watched) {
      try {
        limiter.abandonOverdue();
      } catch (RuntimeException e) {
        // a store that cannot take the permit back now: the next sweep tries again
      }
    }
  }

  private synchronized void start() {
    if (sweeper != null || closed) {
      return;
    }
    sweeper =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "limiter-outbound-overdue-calls");
              thread.setDaemon(true);
              return thread;
            });
    sweeper.scheduleWithFixedDelay(this::sweep, 1, 1, TimeUnit.SECONDS);
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
  }
}
