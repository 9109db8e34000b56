package io.github.limiter.bench.adaptive;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A backend of known capacity: {@code slots} requests at once, each 20 ms; the others queue, first
 * come first served. A request that waited {@link #MAX_QUEUE_MILLIS} for a slot gets a 504, so that
 * a run without a limiter drains in bounded time. Its capacity can change while it serves, as a
 * backend's does when a dependency slows down or a node joins.
 */
final class CapacityBackend extends HttpServlet {

  private static final long serialVersionUID = 1L;

  static final int SERVICE_MILLIS = 20;
  static final long MAX_QUEUE_MILLIS = 2_000;

  /** The most slots the backend ever has; those beyond its capacity are held back. */
  static final int MAX_SLOTS = 64;

  private final transient Semaphore slots = new Semaphore(0, true);
  private int held = MAX_SLOTS; // slots held back from requests; guarded by this
  private transient Thread resizing;

  CapacityBackend(int capacity) {
    resize(capacity);
  }

  /**
   * Gives the backend {@code capacity} slots: more at once; fewer as the requests in them end (the
   * slots are taken back in the background, each as soon as it is free).
   */
  synchronized void resize(int capacity) {
    int wanted = MAX_SLOTS - capacity;
    if (resizing != null) {
      resizing.interrupt();
      try {
        resizing.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (wanted < held) {
      slots.release(held - wanted);
      held = wanted;
      return;
    }
    int more = wanted - held;
    held = wanted;
    if (more > 0) {
      resizing =
          new Thread(
              () -> {
                int taken = 0;
                try {
                  for (; taken < more; taken++) {
                    slots.acquire();
                  }
                } catch (InterruptedException e) {
                  synchronized (this) {
                    held -= more - taken; // a later resize counts from what was taken
                  }
                }
              },
              "backend-resize");
      resizing.setDaemon(true);
      resizing.start();
    }
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    boolean admitted;
    try {
      admitted = slots.tryAcquire(MAX_QUEUE_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      admitted = false;
    }
    if (!admitted) {
      response.setStatus(504);
      return;
    }
    try {
      Thread.sleep(SERVICE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      slots.release();
    }
    response.setContentType("text/plain");
    response.getOutputStream().write('k');
  }
}
