package io.github.limiter.internal.admission;

import io.github.limiter.RequestView;

/**
 * Watches every outcome of an {@link Admission}, once per call, after it is decided and before the
 * adapter renders it: the place for an adapter's counters and events. Observers watch; they never
 * decide. (Metrics are not an observer: the step reports them itself, see {@link
 * AdmissionMetrics}.)
 */
@FunctionalInterface
public interface AdmissionObserver {

  AdmissionObserver NONE = (request, outcome) -> {};

  void observe(RequestView request, RequestFrame outcome);
}
