package io.github.limiter.metrics;

import io.github.limiter.internal.metrics.Recorder.OutboundEvent;
import io.github.limiter.internal.metrics.Recorder.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A backend's meters, made once per tag value and then found with one map lookup: policy and store
 * names are few and fixed at start-up, so the maps stay small.
 */
final class PolicyMeters {

  /** Makes the meter of one combination of {@code limiter.decisions} tags. */
  interface DecisionMeter<T> {
    T create(String policy, Verdict outcome, boolean verified);
  }

  private PolicyMeters() {}

  /** The meters of {@code limiter.decisions}, per policy one for each outcome and verified flag. */
  static final class DecisionMeters<T> {
    private final Map<String, List<T>> byPolicy = new ConcurrentHashMap<>();
    private final DecisionMeter<T> factory;

    DecisionMeters(DecisionMeter<T> factory) {
      this.factory = factory;
    }

    T get(String policy, Verdict outcome, boolean verified) {
      List<T> row = byPolicy.get(policy);
      if (row == null) {
        row = byPolicy.computeIfAbsent(policy, this::row);
      }
      return row.get(outcome.ordinal() * 2 + (verified ? 1 : 0));
    }

    private List<T> row(String policy) {
      List<T> row = new ArrayList<>();
      for (Verdict outcome : Verdict.values()) {
        row.add(factory.create(policy, outcome, false));
        row.add(factory.create(policy, outcome, true));
      }
      return List.copyOf(row);
    }
  }

  /** The meters of {@code limiter.outbound}, per policy one for each event. */
  static final class OutboundMeters<T> {
    private final Map<String, List<T>> byPolicy = new ConcurrentHashMap<>();
    private final BiFunction<String, OutboundEvent, T> factory;

    OutboundMeters(BiFunction<String, OutboundEvent, T> factory) {
      this.factory = factory;
    }

    T get(String policy, OutboundEvent event) {
      List<T> row = byPolicy.get(policy);
      if (row == null) {
        row = byPolicy.computeIfAbsent(policy, this::row);
      }
      return row.get(event.ordinal());
    }

    private List<T> row(String policy) {
      List<T> row = new ArrayList<>();
      for (OutboundEvent event : OutboundEvent.values()) {
        row.add(factory.apply(policy, event));
      }
      return List.copyOf(row);
    }
  }

  /** Meters with one tag, such as {@code policy} or {@code store}. */
  static final class ByName<T> {
    private final Map<String, T> byName = new ConcurrentHashMap<>();
    private final Function<String, T> factory;

    ByName(Function<String, T> factory) {
      this.factory = factory;
    }

    T get(String name) {
      T meter = byName.get(name);
      return meter != null ? meter : byName.computeIfAbsent(name, factory);
    }
  }
}
