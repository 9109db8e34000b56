package io.github.limiter.redis;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The concurrency permits this node holds in Redis, by key, so that it can renew their holds: a
 * daemon thread re-stamps each one every hold TTL / 3 while the permits are held. A node that dies
 * stops renewing, and its permits are free one hold TTL after its last renewal at the latest.
 */
final class Holdings {

  /** What this node holds under one client key of one policy. */
  record Holding(CompiledPolicy policy, List<String> keys, long count) {}

  private final ConcurrentHashMap<String, Holding> held = new ConcurrentHashMap<>();
  private final long holdNanos;
  private final Consumer<Holding> renew;
  private ScheduledExecutorService renewer;
  private boolean closed;

  /**
   * @param renew re-stamps the holds of one holding in Redis; must not throw
   */
  Holdings(long holdNanos, Consumer<Holding> renew) {
    this.holdNanos = holdNanos;
    this.renew = renew;
  }

  /** Records permits Redis admitted for this node; starts renewing on the first. */
  void acquired(CompiledPolicy policy, List<String> keys, long permits) {
    held.merge(
        keys.get(0),
        new Holding(policy, keys, permits),
        (was, more) -> new Holding(was.policy(), was.keys(), was.count() + more.count()));
    startRenewing();
  }

  /**
   * Forgets up to {@code permits} held under {@code keys} and returns how many this node held in
   * Redis: those go back to Redis, the rest were admitted elsewhere (by the failure mode).
   */
  long released(List<String> keys, long permits) {
    long[] taken = {0};
    held.computeIfPresent(
        keys.get(0),
        (key, was) -> {
          taken[0] = Math.min(was.count(), permits);
          long left = was.count() - taken[0];
          return left > 0 ? new Holding(was.policy(), was.keys(), left) : null;
        });
    return taken[0];
  }

  /** Renews every hold of this node, once. */
  void renewAll() {
    held.values().forEach(renew);
  }

  /** What is held now. */
  List<Holding> held() {
    return List.copyOf(held.values());
  }

  private synchronized void startRenewing() {
    if (renewer != null || closed) {
      return;
    }
    renewer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "limiter-redis-concurrency-renew");
              thread.setDaemon(true);
              return thread;
            });
    long every = Math.max(1, holdNanos / 3);
    renewer.scheduleWithFixedDelay(this::renewAll, every, every, TimeUnit.NANOSECONDS);
  }

  /** Stops renewing; returns what was held, now forgotten, for the store to give back. */
  synchronized List<Holding> close() {
    closed = true;
    if (renewer != null) {
      renewer.shutdownNow();
    }
    List<Holding> last = held();
    held.clear();
    return last;
  }
}
