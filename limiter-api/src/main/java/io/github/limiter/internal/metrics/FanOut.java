package io.github.limiter.internal.metrics;

import java.util.Arrays;

/** Records on several backends, as when a server offers both OpenTelemetry and Micrometer. */
final class FanOut implements Recorder {

  private final Recorder[] recorders;

  FanOut(Recorder[] recorders) {
    this.recorders = recorders;
  }

  @Override
  public void decision(String policy, Verdict outcome, boolean verified) {
    for (Recorder r : recorders) {
      r.decision(policy, outcome, verified);
    }
  }

  @Override
  public void nearLimit(String policy) {
    for (Recorder r : recorders) {
      r.nearLimit(policy);
    }
  }

  @Override
  public void adminChange(String policy, String action) {
    for (Recorder r : recorders) {
      r.adminChange(policy, action);
    }
  }

  @Override
  public void shapingDelay(String policy, long nanos) {
    for (Recorder r : recorders) {
      r.shapingDelay(policy, nanos);
    }
  }

  @Override
  public void storeDuration(String store, long nanos) {
    for (Recorder r : recorders) {
      r.storeDuration(store, nanos);
    }
  }

  @Override
  public void outbound(String policy, OutboundEvent event) {
    for (Recorder r : recorders) {
      r.outbound(policy, event);
    }
  }

  @Override
  public void watch(StoreGauges store) {
    for (Recorder r : recorders) {
      r.watch(store);
    }
  }

  @Override
  public void watch(ConcurrencyGauges limit) {
    for (Recorder r : recorders) {
      r.watch(limit);
    }
  }

  /** The backends, as the start line names them: {@code MicroProfileMetrics + OpenTelemetry}. */
  @Override
  public String toString() {
    return String.join(" + ", Arrays.stream(recorders).map(Object::toString).toList());
  }
}
