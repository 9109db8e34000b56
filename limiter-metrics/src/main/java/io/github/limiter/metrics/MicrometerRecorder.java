package io.github.limiter.metrics;

import static io.github.limiter.metrics.MetricNames.ACTION;
import static io.github.limiter.metrics.MetricNames.ADMIN_CHANGES;
import static io.github.limiter.metrics.MetricNames.ADMIN_CHANGES_HELP;
import static io.github.limiter.metrics.MetricNames.CIRCUIT_STATE;
import static io.github.limiter.metrics.MetricNames.CIRCUIT_STATE_HELP;
import static io.github.limiter.metrics.MetricNames.CONCURRENCY_BASELINE;
import static io.github.limiter.metrics.MetricNames.CONCURRENCY_BASELINE_HELP;
import static io.github.limiter.metrics.MetricNames.CONCURRENCY_IN_FLIGHT;
import static io.github.limiter.metrics.MetricNames.CONCURRENCY_IN_FLIGHT_HELP;
import static io.github.limiter.metrics.MetricNames.CONCURRENCY_LATENCY;
import static io.github.limiter.metrics.MetricNames.CONCURRENCY_LATENCY_HELP;
import static io.github.limiter.metrics.MetricNames.CONCURRENCY_LIMIT;
import static io.github.limiter.metrics.MetricNames.CONCURRENCY_LIMIT_HELP;
import static io.github.limiter.metrics.MetricNames.DECISIONS;
import static io.github.limiter.metrics.MetricNames.DECISIONS_HELP;
import static io.github.limiter.metrics.MetricNames.EVENT;
import static io.github.limiter.metrics.MetricNames.MEMORY_EVICTIONS;
import static io.github.limiter.metrics.MetricNames.MEMORY_EVICTIONS_HELP;
import static io.github.limiter.metrics.MetricNames.MEMORY_KEYS;
import static io.github.limiter.metrics.MetricNames.MEMORY_KEYS_HELP;
import static io.github.limiter.metrics.MetricNames.NEAR_LIMIT;
import static io.github.limiter.metrics.MetricNames.NEAR_LIMIT_HELP;
import static io.github.limiter.metrics.MetricNames.OUTBOUND;
import static io.github.limiter.metrics.MetricNames.OUTBOUND_HELP;
import static io.github.limiter.metrics.MetricNames.OUTCOME;
import static io.github.limiter.metrics.MetricNames.POLICY;
import static io.github.limiter.metrics.MetricNames.REGION;
import static io.github.limiter.metrics.MetricNames.SHAPING_DELAY;
import static io.github.limiter.metrics.MetricNames.SHAPING_DELAY_HELP;
import static io.github.limiter.metrics.MetricNames.STORE;
import static io.github.limiter.metrics.MetricNames.STORE_DURATION;
import static io.github.limiter.metrics.MetricNames.STORE_DURATION_HELP;
import static io.github.limiter.metrics.MetricNames.VERIFIED;

import io.github.limiter.internal.metrics.ConcurrencyGauges;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.StoreGauges;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * Records on a Micrometer {@link MeterRegistry}. Loaded only when Micrometer is on the class path.
 */
final class MicrometerRecorder implements Recorder {

  /**
   * WildFly's per-deployment registry: it forwards only the shorthand methods ({@code counter(name,
   * tags)} and the like) to the server's registry, adding the deployment's tag; a meter registered
   * by a builder stays in the wrapper, where no scrape sees it.
   */
  private static final String WILDFLY_APPLICATION_REGISTRY =
      "org.wildfly.extension.micrometer.registry.ApplicationRegistry";

  private final MeterRegistry registry;

  /**
   * Whether meters are made by the shorthand methods (no descriptions; the server's registry
   * decides the timers' histograms) instead of builders.
   */
  private final boolean shorthandOnly;

  /** What this recorder's gauges read: the shorthand {@code gauge} holds it only weakly. */
  private final List<Object> gauged = new CopyOnWriteArrayList<>();

  private final PolicyMeters.DecisionMeters<Counter> decisions;
  private final PolicyMeters.ByName<Counter> nearLimit;
  private final PolicyMeters.ByName<Timer> shapingDelay;
  private final PolicyMeters.ByName<Timer> storeDuration;
  private final PolicyMeters.OutboundMeters<Counter> outbound;

  MicrometerRecorder(MeterRegistry registry) {
    this.registry = registry;
    this.shorthandOnly = isA(registry.getClass(), WILDFLY_APPLICATION_REGISTRY);
    outbound =
        new PolicyMeters.OutboundMeters<>(
            (policy, event) ->
                counter(OUTBOUND, OUTBOUND_HELP, Tags.of(POLICY, policy, EVENT, event.tag())));
    decisions =
        new PolicyMeters.DecisionMeters<>(
            (policy, outcome, verified) ->
                counter(
                    DECISIONS,
                    DECISIONS_HELP,
                    Tags.of(
                        POLICY,
                        policy,
                        OUTCOME,
                        outcome.tag(),
                        VERIFIED,
                        Boolean.toString(verified))));
    nearLimit =
        new PolicyMeters.ByName<>(
            policy -> counter(NEAR_LIMIT, NEAR_LIMIT_HELP, Tags.of(POLICY, policy)));
    shapingDelay =
        new PolicyMeters.ByName<>(
            policy ->
                timer(
                    SHAPING_DELAY,
                    SHAPING_DELAY_HELP,
                    Tags.of(POLICY, policy),
                    Duration.ofMillis(1),
                    Duration.ofSeconds(30)));
    storeDuration =
        new PolicyMeters.ByName<>(
            store ->
                timer(
                    STORE_DURATION,
                    STORE_DURATION_HELP,
                    Tags.of(STORE, store),
                    Duration.ofNanos(50_000),
                    Duration.ofSeconds(1)));
  }

  private static boolean isA(Class<?> type, String className) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c.getName().equals(className)) {
        return true;
      }
    }
    return false;
  }

  // Iterable<Tag>, not Tags: the shorthand overloads taking Tags are newer than some servers'
  // Micrometer (WildFly 39 ships 1.15).
  private Counter counter(String name, String help, Iterable<Tag> tags) {
    return shorthandOnly
        ? registry.counter(name, tags)
        : Counter.builder(name).description(help).tags(tags).register(registry);
  }

  private Timer timer(String name, String help, Iterable<Tag> tags, Duration min, Duration max) {
    return shorthandOnly
        ? registry.timer(name, tags)
        : Timer.builder(name)
            .description(help)
            .tags(tags)
            .publishPercentileHistogram()
            .minimumExpectedValue(min)
            .maximumExpectedValue(max)
            .register(registry);
  }

  /**
   * A gauge held strongly: a registry holds gauges weakly by default, and nothing else holds these.
   */
  private <T> void gauge(
      String name, String help, Iterable<Tag> tags, T source, ToDoubleFunction<T> value) {
    if (shorthandOnly) {
      gauged.add(source);
      registry.gauge(name, tags, source, value);
    } else {
      Gauge.builder(name, source, value)
          .description(help)
          .tags(tags)
          .strongReference(true)
          .register(registry);
    }
  }

  @Override
  public void decision(String policy, Verdict outcome, boolean verified) {
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
  public void outbound(String policy, OutboundEvent event) {
    outbound.get(policy, event).increment();
  }

  @Override
  public void adminChange(String policy, String action) {
    counter(ADMIN_CHANGES, ADMIN_CHANGES_HELP, Tags.of(POLICY, policy, ACTION, action)).increment();
  }

  @Override
  public void watch(StoreGauges gauges) {
    gauge(
        CIRCUIT_STATE,
        CIRCUIT_STATE_HELP,
        Tags.of(STORE, gauges.store()),
        gauges,
        StoreGauges::circuitState);
    gauges
        .keys()
        .ifPresent(
            keys ->
                gauge(MEMORY_KEYS, MEMORY_KEYS_HELP, Tags.empty(), keys, LongSupplier::getAsLong));
    gauges
        .evictions()
        .ifPresent(
            evictions ->
                gauge(
                    MEMORY_EVICTIONS,
                    MEMORY_EVICTIONS_HELP,
                    Tags.empty(),
                    evictions,
                    LongSupplier::getAsLong));
    gauges
        .regions()
        .ifPresent(
            budgets -> {
              for (String policy : budgets.policies()) {
                Tags tags = Tags.of(POLICY, policy, REGION, budgets.region());
                for (MetricNames.RegionGauge g : MetricNames.RegionGauge.values()) {
                  gauge(g.metric, g.help, tags, budgets, b -> g.read(b, policy));
                }
              }
            });
  }

  @Override
  public void watch(ConcurrencyGauges limit) {
    Tags policy = Tags.of(POLICY, limit.policy());
    gauge(CONCURRENCY_LIMIT, CONCURRENCY_LIMIT_HELP, policy, limit, g -> g.limit().getAsLong());
    gauge(
        CONCURRENCY_IN_FLIGHT,
        CONCURRENCY_IN_FLIGHT_HELP,
        policy,
        limit,
        g -> g.inFlight().getAsLong());
    gauge(
        CONCURRENCY_LATENCY,
        CONCURRENCY_LATENCY_HELP,
        policy,
        limit,
        g -> g.latencyNanos().getAsLong() / 1e9);
    gauge(
        CONCURRENCY_BASELINE,
        CONCURRENCY_BASELINE_HELP,
        policy,
        limit,
        g -> g.baselineNanos().getAsLong() / 1e9);
  }

  @Override
  public String toString() {
    return "Micrometer(" + registry.getClass().getSimpleName() + ")";
  }
}
