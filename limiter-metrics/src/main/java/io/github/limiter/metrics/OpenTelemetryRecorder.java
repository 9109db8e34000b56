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
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Records on an OpenTelemetry {@link Meter}. Loaded only when the OpenTelemetry API is on the class
 * path. Durations are histograms in seconds, as OpenTelemetry's semantic conventions ask, so a
 * Prometheus exporter shows them as {@code limiter_store_duration_seconds}.
 */
final class OpenTelemetryRecorder implements Recorder {

  /** The instrumentation scope name. */
  static final String SCOPE = "io.github.limiter";

  private static final AttributeKey<String> POLICY_KEY = AttributeKey.stringKey(POLICY);
  private static final AttributeKey<String> STORE_KEY = AttributeKey.stringKey(STORE);
  // From 50 µs (a local decision) to 1 s (a Redis timeout), and from 1 ms to 30 s (the default
  // max-delay).
  private static final List<Double> STORE_BUCKETS =
      List.of(
          0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
          1.0);
  private static final List<Double> SHAPING_BUCKETS =
      List.of(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0);

  private final Meter meter;
  private final LongCounter decisions;
  private final LongCounter nearLimit;
  private final LongCounter adminChanges;
  private final DoubleHistogram shapingDelay;
  private final DoubleHistogram storeDuration;
  private final LongCounter outbound;
  private final PolicyMeters.OutboundMeters<Attributes> outboundTags =
      new PolicyMeters.OutboundMeters<>(
          (policy, event) ->
              Attributes.of(POLICY_KEY, policy, AttributeKey.stringKey(EVENT), event.tag()));
  private final PolicyMeters.DecisionMeters<Attributes> decisionTags =
      new PolicyMeters.DecisionMeters<>(
          (policy, outcome, verified) ->
              Attributes.of(
                  POLICY_KEY,
                  policy,
                  AttributeKey.stringKey(OUTCOME),
                  outcome.tag(),
                  AttributeKey.booleanKey(VERIFIED),
                  verified));
  private final PolicyMeters.ByName<Attributes> policyTags =
      new PolicyMeters.ByName<>(p -> Attributes.of(POLICY_KEY, p));
  private final PolicyMeters.ByName<Attributes> storeTags =
      new PolicyMeters.ByName<>(s -> Attributes.of(STORE_KEY, s));

  /**
   * Whether the OpenTelemetry API can advise histogram buckets: from 1.32; Payara 6 serves 1.29,
   * whose histograms then take the SDK's (or the server's) buckets.
   */
  static final boolean BUCKET_ADVICE = hasBucketAdvice();

  OpenTelemetryRecorder(Meter meter) {
    this(meter, BUCKET_ADVICE);
  }

  /** A recorder that advises its histograms' buckets only if {@code bucketAdvice}. */
  OpenTelemetryRecorder(Meter meter, boolean bucketAdvice) {
    this.meter = meter;
    decisions = meter.counterBuilder(DECISIONS).setDescription(DECISIONS_HELP).build();
    nearLimit = meter.counterBuilder(NEAR_LIMIT).setDescription(NEAR_LIMIT_HELP).build();
    outbound = meter.counterBuilder(OUTBOUND).setDescription(OUTBOUND_HELP).build();
    adminChanges = meter.counterBuilder(ADMIN_CHANGES).setDescription(ADMIN_CHANGES_HELP).build();
    shapingDelay =
        histogram(SHAPING_DELAY, SHAPING_DELAY_HELP, bucketAdvice ? SHAPING_BUCKETS : null);
    storeDuration =
        histogram(STORE_DURATION, STORE_DURATION_HELP, bucketAdvice ? STORE_BUCKETS : null);
  }

  /** A histogram in seconds, with {@code buckets} advised unless null. */
  private DoubleHistogram histogram(String name, String help, List<Double> buckets) {
    DoubleHistogramBuilder builder = meter.histogramBuilder(name).setDescription(help).setUnit("s");
    // Linked only when called: an older API never sees this call.
    return (buckets == null ? builder : builder.setExplicitBucketBoundariesAdvice(buckets)).build();
  }

  static boolean hasBucketAdvice() {
    try {
      DoubleHistogramBuilder.class.getMethod("setExplicitBucketBoundariesAdvice", List.class);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  @Override
  public void decision(String policy, Verdict outcome, boolean verified) {
    decisions.add(1, decisionTags.get(policy, outcome, verified));
  }

  @Override
  public void nearLimit(String policy) {
    nearLimit.add(1, policyTags.get(policy));
  }

  @Override
  public void adminChange(String policy, String action) {
    adminChanges.add(1, Attributes.of(POLICY_KEY, policy, AttributeKey.stringKey(ACTION), action));
  }

  @Override
  public void shapingDelay(String policy, long nanos) {
    shapingDelay.record(nanos / 1e9, policyTags.get(policy));
  }

  @Override
  public void storeDuration(String store, long nanos) {
    storeDuration.record(nanos / 1e9, storeTags.get(store));
  }

  @Override
  public void outbound(String policy, OutboundEvent event) {
    outbound.add(1, outboundTags.get(policy, event));
  }

  @Override
  public void watch(StoreGauges gauges) {
    Attributes store = storeTags.get(gauges.store());
    meter
        .gaugeBuilder(CIRCUIT_STATE)
        .setDescription(CIRCUIT_STATE_HELP)
        .ofLongs()
        .buildWithCallback(m -> m.record(gauges.circuitState(), store));
    gauges.keys().ifPresent(keys -> gauge(MEMORY_KEYS, MEMORY_KEYS_HELP, keys));
    gauges
        .evictions()
        .ifPresent(evictions -> gauge(MEMORY_EVICTIONS, MEMORY_EVICTIONS_HELP, evictions));
    gauges
        .regions()
        .ifPresent(
            budgets -> {
              for (MetricNames.RegionGauge g : MetricNames.RegionGauge.values()) {
                // One callback per gauge, recording every global policy.
                meter
                    .gaugeBuilder(g.metric)
                    .setDescription(g.help)
                    .ofLongs()
                    .buildWithCallback(
                        m -> {
                          for (String policy : budgets.policies()) {
                            m.record(
                                g.read(budgets, policy),
                                Attributes.of(
                                    POLICY_KEY,
                                    policy,
                                    AttributeKey.stringKey(REGION),
                                    budgets.region()));
                          }
                        });
              }
            });
  }

  @Override
  public void watch(ConcurrencyGauges limit) {
    Attributes policy = policyTags.get(limit.policy());
    meter
        .gaugeBuilder(CONCURRENCY_LIMIT)
        .setDescription(CONCURRENCY_LIMIT_HELP)
        .ofLongs()
        .buildWithCallback(m -> m.record(limit.limit().getAsLong(), policy));
    meter
        .gaugeBuilder(CONCURRENCY_IN_FLIGHT)
        .setDescription(CONCURRENCY_IN_FLIGHT_HELP)
        .ofLongs()
        .buildWithCallback(m -> m.record(limit.inFlight().getAsLong(), policy));
    meter
        .gaugeBuilder(CONCURRENCY_LATENCY)
        .setDescription(CONCURRENCY_LATENCY_HELP)
        .setUnit("s")
        .buildWithCallback(m -> m.record(limit.latencyNanos().getAsLong() / 1e9, policy));
    meter
        .gaugeBuilder(CONCURRENCY_BASELINE)
        .setDescription(CONCURRENCY_BASELINE_HELP)
        .setUnit("s")
        .buildWithCallback(m -> m.record(limit.baselineNanos().getAsLong() / 1e9, policy));
  }

  private void gauge(String name, String help, LongSupplier value) {
    meter
        .gaugeBuilder(name)
        .setDescription(help)
        .ofLongs()
        .buildWithCallback(m -> m.record(value.getAsLong()));
  }

  @Override
  public String toString() {
    return "OpenTelemetry";
  }
}
