package io.github.limiter.internal.admission;

import io.github.limiter.NanoClock;
import io.github.limiter.internal.config.PolicyConfig;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The node's adaptive gates: one per adaptive policy, however many places and adapters apply it.
 */
public final class AdaptiveGates {

  private final Map<String, AdaptiveGate> gates = new ConcurrentHashMap<>();
  private final NanoClock clock;
  private final Consumer<AdaptiveGate> created;

  /**
   * @param clock what the gates measure latency with
   * @param created told of each gate once, as it is made (for its gauges)
   */
  public AdaptiveGates(NanoClock clock, Consumer<AdaptiveGate> created) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.created = Objects.requireNonNull(created, "created");
  }

  /** The gate of {@code policy} if it is adaptive; null for another policy. */
  public AdaptiveGate gate(PolicyConfig policy) {
    return policy.adaptive()
        ? gates.computeIfAbsent(
            policy.name(),
            name -> {
              AdaptiveGate made = new AdaptiveGate(policy, clock);
              created.accept(made);
              return made;
            })
        : null;
  }
}
