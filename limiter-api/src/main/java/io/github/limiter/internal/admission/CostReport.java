package io.github.limiter.internal.admission;

import io.github.limiter.ActualCost;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one request reported of its {@link ActualCost}, which {@link Admission#finish} settles; and
 * the scope in which an entered {@link RequestFrame} makes the request's handle current on its
 * thread. The report is made on the first {@link ActualCost#current()} inside the scope, so a
 * request that reports nothing costs no allocation; a filter and a {@code @Limited} call inside it
 * share one scope and one report.
 */
public final class CostReport extends ActualCost {

  /** No report. */
  static final long NONE = -1;

  private static final ThreadLocal<ThreadScope> SCOPES = ThreadLocal.withInitial(ThreadScope::new);

  private volatile long all = NONE;
  private final ConcurrentHashMap<String, Long> byPolicy = new ConcurrentHashMap<>(4);

  private CostReport() {}

  /** Starts handling an admitted request on this thread; nested, joins the outer one's scope. */
  public static void enter() {
    ThreadScope scope = SCOPES.get();
    if (scope.depth++ == 0) {
      bind(scope);
    }
  }

  /** Ends what {@link #enter} started; returns the request's report, or null if it made none. */
  public static CostReport exit() {
    ThreadScope scope = SCOPES.get();
    CostReport report = scope.report;
    if (--scope.depth == 0) {
      scope.report = null;
      bind(null);
    }
    return report;
  }

  @Override
  protected void record(String policy, long permits) {
    if (policy == null) {
      all = permits;
    } else {
      byPolicy.put(policy, permits);
    }
  }

  /** The actual cost reported for {@code rule}'s policy, or {@link #NONE}. */
  long actual(Rule rule) {
    Long named = byPolicy.get(rule.name());
    if (named != null) {
      return named;
    }
    return rule.cost() != null ? all : NONE;
  }

  /** One thread's scope, reused from request to request. */
  private static final class ThreadScope extends ActualCost {
    int depth;
    CostReport report;

    @Override
    protected ActualCost handle() {
      return made();
    }

    @Override
    protected void record(String policy, long permits) {
      made().record(policy, permits);
    }

    private CostReport made() {
      if (report == null) {
        report = new CostReport();
      }
      return report;
    }
  }
}
