package io.github.limiter.internal.admission;

import io.github.limiter.RequestView;

/**
 * Watches every outcome of an {@link Admission}, once per call, after it is decided and before the
 * adapter renders it: the place for counters, events and metrics. Recorders watch; they never
 * decide.
 */
@FunctionalInterface
public interface Recorder {

  Recorder NONE = (request, outcome) -> {};

  void record(RequestView request, Outcome outcome);

  /** This recorder, then {@code next}. */
  default Recorder andThen(Recorder next) {
    return next == NONE ? this : this == NONE ? next : (request, outcome) -> {
      record(request, outcome);
      next.record(request, outcome);
    };
  }
}
