package io.github.limiter.cdi;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.internal.render.ResponseRenderer;
import java.util.function.BiConsumer;

/**
 * Collects what {@link Limited} admitted while an HTTP adapter serves a request on this thread, so
 * that it can send the {@code RateLimit} headers of the tightest admission. The JAX-RS response
 * filter in {@code io.github.limiter.cdi.jaxrs} uses it; without an open scope nothing is kept.
 */
public final class AdmittedDecisions {

  private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();

  private AdmittedDecisions() {}

  /**
   * Starts collecting on this thread until the scope is closed. A scope left open on this thread
   * (say, by a request that went asynchronous) is replaced, never kept.
   */
  public static Scope open() {
    Scope scope = new Scope();
    CURRENT.set(scope);
    return scope;
  }

  /** Keeps {@code decision} if a scope is open and it leaves fewer permits than what is kept. */
  static void record(Policy policy, Decision decision, ResponseRenderer renderer) {
    Scope scope = CURRENT.get();
    if (scope != null) {
      scope.record(policy, decision, renderer);
    }
  }

  /** The admissions of one request. */
  public static final class Scope implements AutoCloseable {
    private Policy policy;
    private Decision decision;
    private ResponseRenderer renderer;

    private Scope() {}

    synchronized void record(Policy admittedPolicy, Decision admitted, ResponseRenderer with) {
      if (decision == null || admitted.remaining() < decision.remaining()) {
        policy = admittedPolicy;
        decision = admitted;
        renderer = with;
      }
    }

    /** Whether nothing was admitted under a policy. */
    public synchronized boolean isEmpty() {
      return decision == null;
    }

    /** Writes the rate-limit headers of the tightest admission, as configured; nothing if none. */
    public synchronized void headers(BiConsumer<String, String> header) {
      if (decision != null) {
        renderer.headers(policy, decision, header);
      }
    }

    /** Stops collecting on this thread; the headers stay readable. */
    @Override
    public void close() {
      if (CURRENT.get() == this) {
        CURRENT.remove();
      }
    }
  }
}
