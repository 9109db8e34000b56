package io.github.limiter.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Holds admitted requests until their leaky-bucket departure without holding a container thread:
 * the request goes async, one small daemon scheduler wakes it when due, and {@link
 * AsyncContext#dispatch()} sends it through the filter chain again.
 */
final class Shaper {

  /** The async timeout is the wait plus this margin, so that the container never times a waiting request out. */
  private static final long TIMEOUT_MARGIN_MILLIS = 60_000;

  private final ScheduledThreadPoolExecutor scheduler;
  private final Set<Held> held = ConcurrentHashMap.newKeySet();

  Shaper(String name) {
    scheduler = new ScheduledThreadPoolExecutor(1, task -> {
      Thread thread = new Thread(task, "limiter-shaping-" + name);
      thread.setDaemon(true);
      return thread;
    });
    scheduler.setRemoveOnCancelPolicy(true);
  }

  /** Puts the request on hold for {@code nanos}, then dispatches it again. */
  void hold(HttpServletRequest request, HttpServletResponse response, long nanos) {
    AsyncContext async = request.startAsync(request, response);
    async.setTimeout(TimeUnit.NANOSECONDS.toMillis(nanos) + TIMEOUT_MARGIN_MILLIS);
    Held entry = new Held(async);
    held.add(entry);
    scheduler.schedule(entry, nanos, TimeUnit.NANOSECONDS);
  }

  /** Stops the scheduler and lets every held request through at once, so none is left hanging. */
  void shutdown() {
    scheduler.shutdownNow();
    for (Held entry : held) {
      entry.run();
    }
  }

  /** One held request; resumed exactly once, by the scheduler or by shutdown. */
  private final class Held implements Runnable {
    private final AsyncContext async;
    private final AtomicBoolean resumed = new AtomicBoolean();

    Held(AsyncContext async) {
      this.async = async;
    }

    @Override
    public void run() {
      if (!resumed.compareAndSet(false, true)) {
        return;
      }
      held.remove(this);
      try {
        async.dispatch();
      } catch (IllegalStateException e) {
        // Completed or timed out meanwhile (e.g. the client went away): nothing left to resume.
      }
    }
  }
}
