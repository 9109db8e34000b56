package io.github.limiter.metrics;

import static io.github.limiter.metrics.MetricNames.CIRCUIT_STATE;
import static io.github.limiter.metrics.MetricNames.CIRCUIT_STATE_HELP;
import static io.github.limiter.metrics.MetricNames.DECISIONS;
import static io.github.limiter.metrics.MetricNames.DECISIONS_HELP;
import static io.github.limiter.metrics.MetricNames.MEMORY_EVICTIONS;
import static io.github.limiter.metrics.MetricNames.MEMORY_EVICTIONS_HELP;
import static io.github.limiter.metrics.MetricNames.MEMORY_KEYS;
import static io.github.limiter.metrics.MetricNames.MEMORY_KEYS_HELP;
import static io.github.limiter.metrics.MetricNames.NEAR_LIMIT;
import static io.github.limiter.metrics.MetricNames.NEAR_LIMIT_HELP;
import static io.github.limiter.metrics.MetricNames.OUTCOME;
import static io.github.limiter.metrics.MetricNames.POLICY;
import static io.github.limiter.metrics.MetricNames.SHAPING_DELAY;
import static io.github.limiter.metrics.MetricNames.SHAPING_DELAY_HELP;
import static io.github.limiter.metrics.MetricNames.STORE;
import static io.github.limiter.metrics.MetricNames.STORE_DURATION;
import static io.github.limiter.metrics.MetricNames.STORE_DURATION_HELP;
import static io.github.limiter.metrics.MetricNames.VERIFIED;

import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.StoreGauges;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Records on a Micrometer {@link MeterRegistry}. Loaded only when Micrometer is on the class path.
 */
final class MicrometerRecorder implements Recorder {

  private final MeterRegistry registry;
  private final PolicyMeters.Decisions<Counter> decisions;
  private final PolicyMeters.ByName<Counter> nearLimit;
  private final PolicyMeters.ByName<Timer> shapingDelay;
  private final PolicyMeters.ByName<Timer> storeDuration;

  MicrometerRecorder(MeterRegistry registry) {
    this.registry = registry;
    decisions =
        new PolicyMeters.Decisions<>(
            (policy, outcome, verified) ->
                Counter.builder(DECISIONS)
                    .description(DECISIONS_HELP)
                    .tags(
                        POLICY,
                        policy,
                        OUTCOME,
                        outcome.tag(),
                        VERIFIED,
                        Boolean.toString(verified))
                    .register(registry));
    nearLimit =
        new PolicyMeters.ByName<>(
            policy ->
                Counter.builder(NEAR_LIMIT)
                    .description(NEAR_LIMIT_HELP)
                    .tag(POLICY, policy)
                    .register(registry));
    shapingDelay =
        new PolicyMeters.ByName<>(
            policy ->
                Timer.builder(SHAPING_DELAY)
                    .description(SHAPING_DELAY_HELP)
                    .tag(POLICY, policy)
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofMillis(1))
                    .maximumExpectedValue(Duration.ofSeconds(30))
                    .register(registry));
    storeDuration =
        new PolicyMeters.ByName<>(
            store ->
                Timer.builder(STORE_DURATION)
                    .description(STORE_DURATION_HELP)
                    .tag(STORE, store)
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(50_000))
                    .maximumExpectedValue(Duration.ofSeconds(1))
                    .register(registry));
  }

  @Override
  public void decision(String policy, Outcome outcome, boolean verified) {
    decisions.get(policy, outcome, verified).increment();
  }

  @Override
  public void nearLimit(String policy) {
    nearLimit.get(policy).increment();
  }

  @Override
  public void shapingDelay(String policy, long nanos) {
    shapingDelay.get(policy).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void storeDuration(String store, long nanos) {
    storeDuration.get(store).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void watch(StoreGauges gauges) {
    // Strong references: a registry holds gauges weakly by default, and nothing else holds these.
    Gauge.builder(CIRCUIT_STATE, gauges, StoreGauges::circuitState)
        .description(CIRCUIT_STATE_HELP)
        .tag(STORE, gauges.store())
        .strongReference(true)
        .register(registry);
    gauges.keys().ifPresent(keys -> gauge(MEMORY_KEYS, MEMORY_KEYS_HELP, keys));
    gauges
        .evictions()
        .ifPresent(evictions -> gauge(MEMORY_EVICTIONS, MEMORY_EVICTIONS_HELP, evictions));
  }

  private void gauge(String name, String help, LongSupplier value) {
    Gauge.builder(name, value, LongSupplier::getAsLong)
        .description(help)
        .strongReference(true)
        .register(registry);
  }

  @Override
  public String toString() {
    return "Micrometer(" + registry.getClass().getSimpleName() + ")";
  }
}
