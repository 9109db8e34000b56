package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.metrics.ConcurrencyGauges;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.Recorder.Verdict;
import io.github.limiter.internal.metrics.StoreGauges;
import io.github.limiter.memory.InMemoryStore;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.time.Duration;
import java.util.Collection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The OpenTelemetry recorder against the SDK's in-memory reader. */
class OpenTelemetryRecorderTest {

  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Recorder recorder =
      new OpenTelemetryRecorder(provider.get(OpenTelemetryRecorder.SCOPE));

  @AfterEach
  void close() {
    provider.close();
  }

  private static Attributes decision(String policy, String outcome, boolean verified) {
    return Attributes.of(
        AttributeKey.stringKey("policy"),
        policy,
        AttributeKey.stringKey("outcome"),
        outcome,
        AttributeKey.booleanKey("verified"),
        verified);
  }

  private static MetricData metric(Collection<MetricData> metrics, String name) {
    return metrics.stream()
        .filter(m -> m.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + name + " in " + metrics));
  }

  private static long sum(MetricData metric, Attributes attributes) {
    return metric.getLongSumData().getPoints().stream()
        .filter(p -> p.getAttributes().equals(attributes))
        .mapToLong(LongPointData::getValue)
        .sum();
  }

  @Test
  void countsDecisionsByPolicyOutcomeAndVerified() {
    recorder.decision("api", Verdict.ADMITTED, true);
    recorder.decision("api", Verdict.ADMITTED, true);
    recorder.decision("api", Verdict.REJECTED, true);
    recorder.decision("api", Verdict.UNAVAILABLE, false);

    MetricData decisions = metric(reader.collectAllMetrics(), "limiter.decisions");
    assertThat(decisions.getLongSumData().isMonotonic()).isTrue();
    assertThat(sum(decisions, decision("api", "admitted", true))).isEqualTo(2);
    assertThat(sum(decisions, decision("api", "rejected", true))).isEqualTo(1);
    assertThat(sum(decisions, decision("api", "unavailable", false))).isEqualTo(1);
    assertThat(sum(decisions, decision("api", "rejected", false))).isZero();
  }

  @Test
  void countsOutboundEventsByPolicyAndEvent() {
    recorder.outbound("partner", Recorder.OutboundEvent.WAITED);
    recorder.outbound("partner", Recorder.OutboundEvent.WAITED);
    recorder.outbound("partner", Recorder.OutboundEvent.RETRIED);

    MetricData outbound = metric(reader.collectAllMetrics(), "limiter.outbound");
    assertThat(sum(outbound, outbound("partner", "waited"))).isEqualTo(2);
    assertThat(sum(outbound, outbound("partner", "retried"))).isEqualTo(1);
    assertThat(sum(outbound, outbound("partner", "failed"))).isZero();
  }

  private static Attributes outbound(String policy, String event) {
    return Attributes.of(
        AttributeKey.stringKey("policy"), policy, AttributeKey.stringKey("event"), event);
  }

  @Test
  void durationsAreHistogramsInSeconds() {
    recorder.nearLimit("api");
    recorder.shapingDelay("api", 250_000_000);
    recorder.storeDuration("redis", 300_000);
    recorder.storeDuration("redis", 500_000);

    Collection<MetricData> metrics = reader.collectAllMetrics();
    assertThat(
            sum(
                metric(metrics, "limiter.near.limit"),
                Attributes.of(AttributeKey.stringKey("policy"), "api")))
        .isEqualTo(1);
    MetricData store = metric(metrics, "limiter.store.duration");
    assertThat(store.getUnit()).isEqualTo("s");
    HistogramPointData point = store.getHistogramData().getPoints().iterator().next();
    assertThat(point.getAttributes())
        .isEqualTo(Attributes.of(AttributeKey.stringKey("store"), "redis"));
    assertThat(point.getCount()).isEqualTo(2);
    assertThat(point.getSum()).isCloseTo(0.0008, offset(1e-12));
    assertThat(point.getBoundaries()).startsWith(0.00005, 0.0001);
    HistogramPointData shaping =
        metric(metrics, "limiter.shaping.delay").getHistogramData().getPoints().iterator().next();
    assertThat(shaping.getSum()).isCloseTo(0.25, offset(1e-12));
  }

  /**
   * Issue 36.13: Payara 6 serves OpenTelemetry API 1.29, which cannot advise buckets. The recorder
   * then records on histograms without advice, instead of failing with NoSuchMethodError.
   */
  @Test
  void withoutBucketAdviceTheHistogramsRecordOnTheSdksBuckets() {
    // Given a recorder on an API level without bucket advice
    InMemoryMetricReader olderReader = InMemoryMetricReader.create();
    try (SdkMeterProvider older =
        SdkMeterProvider.builder().registerMetricReader(olderReader).build()) {
      Recorder withoutAdvice =
          new OpenTelemetryRecorder(older.get(OpenTelemetryRecorder.SCOPE), false);

      // When it records a store decision's duration
      withoutAdvice.storeDuration("redis", 300_000);

      // Then the histogram counts it in seconds, on the SDK's default buckets
      HistogramPointData point =
          metric(olderReader.collectAllMetrics(), "limiter.store.duration")
              .getHistogramData()
              .getPoints()
              .iterator()
              .next();
      assertThat(point.getCount()).isEqualTo(1);
      assertThat(point.getSum()).isCloseTo(0.0003, offset(1e-12));
      assertThat(point.getBoundaries()).startsWith(0.0, 5.0);
    }
  }

  @Test
  void theApiOnTheClassPathIsFoundToAdviseBuckets() {
    // The API of this build (1.68) has the advice; durationsAreHistogramsInSeconds shows it used.
    assertThat(OpenTelemetryRecorder.hasBucketAdvice()).isTrue();
  }

  @Test
  void gaugesReadTheStoreWhenCollected() {
    InMemoryStore store = InMemoryStore.create();
    recorder.watch(StoreGauges.of("memory", store));
    store.decide(Policy.fixedWindow("api", Limit.of(5, Duration.ofSeconds(1))), "client-1", 1);
    store.decide(Policy.fixedWindow("api", Limit.of(5, Duration.ofSeconds(1))), "client-2", 1);

    Collection<MetricData> metrics = reader.collectAllMetrics();
    assertThat(
            metric(metrics, "limiter.memory.keys")
                .getLongGaugeData()
                .getPoints()
                .iterator()
                .next()
                .getValue())
        .isEqualTo(2);
    LongPointData state =
        metric(metrics, "limiter.store.circuit.state")
            .getLongGaugeData()
            .getPoints()
            .iterator()
            .next();
    assertThat(state.getValue()).isZero();
    assertThat(state.getAttributes())
        .isEqualTo(Attributes.of(AttributeKey.stringKey("store"), "memory"));
  }

  @Test
  void anAdaptiveLimitsGaugesReadItTaggedByPolicy() {
    recorder.watch(
        new ConcurrencyGauges("backend", () -> 12, () -> 5, () -> 30_000_000, () -> 20_000_000));

    Collection<MetricData> metrics = reader.collectAllMetrics();
    LongPointData limit =
        metric(metrics, "limiter.concurrency.limit")
            .getLongGaugeData()
            .getPoints()
            .iterator()
            .next();
    assertThat(limit.getValue()).isEqualTo(12);
    assertThat(limit.getAttributes().asMap()).hasSize(1);
    assertThat(
            metric(metrics, "limiter.concurrency.in.flight")
                .getLongGaugeData()
                .getPoints()
                .iterator()
                .next()
                .getValue())
        .isEqualTo(5);
    assertThat(
            metric(metrics, "limiter.concurrency.latency")
                .getDoubleGaugeData()
                .getPoints()
                .iterator()
                .next()
                .getValue())
        .isEqualTo(0.03);
  }

  @Test
  void countsAdminChangesByPolicyAndAction() {
    recorder.adminChange("api", "trial-start");

    assertThat(
            sum(
                metric(reader.collectAllMetrics(), "limiter.admin.changes"),
                Attributes.of(
                    AttributeKey.stringKey("policy"),
                    "api",
                    AttributeKey.stringKey("action"),
                    "trial-start")))
        .isEqualTo(1);
  }
}
