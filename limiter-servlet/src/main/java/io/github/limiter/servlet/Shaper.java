package io.github.limiter.servlet;

import io.github.limiter.internal.log.LogText;
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
 * the request goes async, the scheduler wakes it when due, and {@link AsyncContext#dispatch()}
 * sends it through the filter chain again, where {@link FilterRequests#resume} lets it pass.
 */
final class Shaper {

  /** The time seam of shaping: runs a task after a wait. Tests drive it by hand. */
  interface Scheduler {
    void schedule(Runnable task, long nanos);

    /** Stops; tasks not yet run are dropped (the shaper resumes its held requests itself). */
    void shutdown();

    /** One small daemon thread. */
    static Scheduler daemon(String name) {
      ScheduledThreadPoolExecutor executor =
          new ScheduledThreadPoolExecutor(
              1,
              task -> {
                Thread thread = new Thread(task, "limiter-shaping-" + name);
                thread.setDaemon(true);
                return thread;
              });
      executor.setRemoveOnCancelPolicy(true);
      return new Scheduler() {
        @Override
        public void schedule(Runnable task, long nanos) {
          executor.schedule(task, nanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void shutdown() {
          executor.shutdownNow();
        }
      };
    }
  }

  /**
   * The async timeout is the wait plus this margin, so that the container never times a waiting
   * request out.
   */
  private static final long TIMEOUT_MARGIN_MILLIS = 60_000;

  private final Scheduler scheduler;
  private final Set<Held> held = ConcurrentHashMap.newKeySet();

  Shaper(Scheduler scheduler) {
    this.scheduler = scheduler;
  }

  /** Puts the request on hold for {@code nanos}, then dispatches it again. */
  void hold(HttpServletRequest request, HttpServletResponse response, long nanos) {
    AsyncContext async = request.startAsync(request, response);
    async.setTimeout(TimeUnit.NANOSECONDS.toMillis(nanos) + TIMEOUT_MARGIN_MILLIS);
    Held entry = new Held(async);
    held.add(entry);
    scheduler.schedule(entry, nanos);
  }

  /** Stops the scheduler and lets every held request through at once, so none is left hanging. */
  void shutdown() {
    scheduler.shutdown();
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

  /** Why a leaky-bucket request passes without its shaping wait, for the filter's warning. */
  static String whyUnheld(String name, HttpServletRequest request) {
    String passes =
        "RateLimitFilter "
            + LogText.quote(name)
            + " lets a leaky-bucket request on "
            + LogText.quote(request.getRequestURI())
            + " pass without its shaping wait: ";
    return request.isAsyncStarted()
        ? passes + "the request is async already"
        : passes
            + "the request is not async-supported. The filter itself, a filter mapped before it, or on some"
            + " servers the servlet is not (<async-supported>true</async-supported> in web.xml, asyncSupported ="
            + " true on @WebFilter and @WebServlet, setAsyncSupported(true) for one added by code)";
  }
}
