package io.github.limiter.servlet;

import io.github.limiter.Decision;
import io.github.limiter.RequestView;
import io.github.limiter.internal.admission.AdmissionObserver;
import io.github.limiter.internal.admission.DryRunLog;
import io.github.limiter.internal.admission.RequestFrame;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;

/**
 * The filter's counters per policy, kept as an observer of the admission step; they back {@link
 * RateLimitFilter.Stats}.
 */
final class Counters implements AdmissionObserver {

  /** One policy's counters. */
  private static final class Of {
    final LongAdder admitted = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder dryRunRejected = new LongAdder();
    final LongAdder delayed = new LongAdder();
  }

  private final Map<String, Of> byPolicy = new LinkedHashMap<>();
  private final DryRunLog dryRunLog;

  Counters(Set<String> policies, Logger logger) {
    policies.forEach(policy -> byPolicy.put(policy, new Of()));
    this.dryRunLog = new DryRunLog(logger, RateLimitFilter.class, "doFilter");
  }

  @Override
  public void observe(RequestView request, RequestFrame outcome) {
    for (int i = 0; i < outcome.size(); i++) {
      String name = outcome.rule(i).name();
      Of of = byPolicy.get(name);
      Decision dryRun = outcome.dryRunRejection(i);
      Decision decision = outcome.decision(i);
      if (dryRun != null) {
        of.dryRunRejected.increment();
        dryRunLog.log(name, dryRun);
      } else if (i == outcome.rejectedAt()) {
        of.rejected.increment();
      } else if (decision != null && decision.isAllowed() && outcome.allowed()) {
        of.admitted.increment();
        if (outcome.rule(i).waitNanos(decision, outcome.cost(i)) > 0) {
          of.delayed.increment();
        }
      }
    }
  }

  Set<String> policies() {
    return byPolicy.keySet();
  }

  /** The counts of {@code policy}, or null if no policy has that name. */
  RateLimitFilter.Stats.Counts counts(String policy) {
    Of of = byPolicy.get(policy);
    return of == null
        ? null
        : new RateLimitFilter.Stats.Counts(
            of.admitted.sum(), of.rejected.sum(), of.dryRunRejected.sum(), of.delayed.sum());
  }
}
