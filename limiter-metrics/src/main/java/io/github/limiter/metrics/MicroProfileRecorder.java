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
import java.time.Duration;
import java.util.function.LongSupplier;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Records on a MicroProfile Metrics 5 {@link MetricRegistry}, the application registry that Payara
 * 6 serves on {@code /metrics} (as {@code limiter_decisions_total{mp_scope="application",...}}).
 * Loaded only when the MicroProfile Metrics API is on the class path.
 */
final class MicroProfileRecorder implements Recorder {

  private static final Metadata DECISIONS_META = meta(DECISIONS, DECISIONS_HELP);
  private static final Metadata NEAR_LIMIT_META = meta(NEAR_LIMIT, NEAR_LIMIT_HELP);
  private static final Metadata SHAPING_DELAY_META = meta(SHAPING_DELAY, SHAPING_DELAY_HELP);
  private static final Metadata STORE_DURATION_META = meta(STORE_DURATION, STORE_DURATION_HELP);

  private static final Metadata ADMIN_CHANGES_META = meta(ADMIN_CHANGES, ADMIN_CHANGES_HELP);

  private final MetricRegistry registry;
  private final PolicyMeters.DecisionMeters<Counter> decisions;
  private final PolicyMeters.ByName<Counter> nearLimit;
  private final PolicyMeters.ByName<Timer> shapingDelay;
  private final PolicyMeters.ByName<Timer> storeDuration;
  private final PolicyMeters.OutboundMeters<Counter> outbound;

  MicroProfileRecorder(MetricRegistry registry) {
    this.registry = registry;
    decisions =
        new PolicyMeters.DecisionMeters<>(
            (policy, outcome, verified) ->
                registry.counter(
                    DECISIONS_META,
                    new Tag(POLICY, policy),
                    new Tag(OUTCOME, outcome.tag()),
                    new Tag(VERIFIED, Boolean.toString(verified))));
    nearLimit =
        new PolicyMeters.ByName<>(
            policy -> registry.counter(NEAR_LIMIT_META, new Tag(POLICY, policy)));
    shapingDelay =
        new PolicyMeters.ByName<>(
            policy -> registry.timer(SHAPING_DELAY_META, new Tag(POLICY, policy)));
    storeDuration =
        new PolicyMeters.ByName<>(
            store -> registry.timer(STORE_DURATION_META, new Tag(STORE, store)));
    Metadata outboundMeta = meta(OUTBOUND, OUTBOUND_HELP);
    outbound =
        new PolicyMeters.OutboundMeters<>(
            (policy, event) ->
                registry.counter(
                    outboundMeta, new Tag(POLICY, policy), new Tag(EVENT, event.tag())));
  }

  private static Metadata meta(String name, String help) {
    return Metadata.builder().withName(name).withDescription(help).build();
  }

  @Override
  public void decision(String policy, Verdict outcome, boolean verified) {
    decisions.get(policy, outcome, verified).inc();
  }

  @Override
  public void nearLimit(String policy) {
    nearLimit.get(policy).inc();
  }

  @Override
  public void adminChange(String policy, String action) {
    registry.counter(ADMIN_CHANGES_META, new Tag(POLICY, policy), new Tag(ACTION, action)).inc();
  }

  @Override
  public void shapingDelay(String policy, long nanos) {
    shapingDelay.get(policy).update(Duration.ofNanos(nanos));
  }

  @Override
  public void storeDuration(String store, long nanos) {
    storeDuration.get(store).update(Duration.ofNanos(nanos));
  }

  @Override
  public void outbound(String policy, OutboundEvent event) {
    outbound.get(policy, event).inc();
  }

  @Override
  public void watch(StoreGauges gauges) {
    registry.gauge(
        meta(CIRCUIT_STATE, CIRCUIT_STATE_HELP),
        gauges::circuitState,
        new Tag(STORE, gauges.store()));
    gauges.keys().ifPresent(keys -> gauge(MEMORY_KEYS, MEMORY_KEYS_HELP, keys));
    gauges
        .evictions()
        .ifPresent(evictions -> gauge(MEMORY_EVICTIONS, MEMORY_EVICTIONS_HELP, evictions));
    gauges
        .regions()
        .ifPresent(
            budgets -> {
              Tag region = new Tag(REGION, budgets.region());
              for (String policy : budgets.policies()) {
                for (MetricNames.RegionGauge g : MetricNames.RegionGauge.values()) {
                  registry.gauge(
                      meta(g.metric, g.help),
                      () -> g.read(budgets, policy),
                      new Tag(POLICY, policy),
                      region);
                }
              }
            });
  }

  @Override
  public void watch(ConcurrencyGauges limit) {
    Tag policy = new Tag(POLICY, limit.policy());
    registry.gauge(
        meta(CONCURRENCY_LIMIT, CONCURRENCY_LIMIT_HELP), limit.limit()::getAsLong, policy);
    registry.gauge(
        meta(CONCURRENCY_IN_FLIGHT, CONCURRENCY_IN_FLIGHT_HELP),
        limit.inFlight()::getAsLong,
        policy);
    registry.gauge(
        meta(CONCURRENCY_LATENCY, CONCURRENCY_LATENCY_HELP),
        () -> limit.latencyNanos().getAsLong() / 1e9,
        policy);
    registry.gauge(
        meta(CONCURRENCY_BASELINE, CONCURRENCY_BASELINE_HELP),
        () -> limit.baselineNanos().getAsLong() / 1e9,
        policy);
  }

  private void gauge(String name, String help, LongSupplier value) {
    registry.gauge(meta(name, help), value::getAsLong);
  }

  @Override
  public String toString() {
    return "MicroProfileMetrics";
  }
}
