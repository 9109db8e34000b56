package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.metrics.ConcurrencyGauges;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.Recorder.Verdict;
import io.github.limiter.internal.metrics.StoreGauges;
import io.github.limiter.memory.InMemoryStore;
import io.smallrye.metrics.SharedMetricRegistries;
import java.time.Duration;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The MicroProfile Metrics recorder against SmallRye Metrics 5.1, an implementation of MP Metrics
 * 5.1.
 */
class MicroProfileRecorderTest {

  private final MetricRegistry registry =
      SharedMetricRegistries.getOrCreate(MetricRegistry.APPLICATION_SCOPE);
  private final Recorder recorder = new MicroProfileRecorder(registry);

  @AfterEach
  void drop() {
    SharedMetricRegistries.dropAll();
  }

  private long count(String policy, String outcome, String verified) {
    return registry
        .getCounter(
            new MetricID(
                "limiter.decisions",
                new Tag("policy", policy),
                new Tag("outcome", outcome),
                new Tag("verified", verified)))
        .getCount();
  }

  @Test
  void countsDecisionsByPolicyOutcomeAndVerified() {
    recorder.decision("api", Verdict.ADMITTED, true);
    recorder.decision("api", Verdict.ADMITTED, true);
    recorder.decision("api", Verdict.REJECTED, true);
    recorder.decision("api", Verdict.UNAVAILABLE, false);

    assertThat(count("api", "admitted", "true")).isEqualTo(2);
    assertThat(count("api", "rejected", "true")).isEqualTo(1);
    assertThat(count("api", "unavailable", "false")).isEqualTo(1);
    assertThat(count("api", "dry-run-rejected", "true")).isZero();
  }

  @Test
  void countsOutboundEventsByPolicyAndEvent() {
    recorder.outbound("partner", Recorder.OutboundEvent.FAILED);
    recorder.outbound("partner", Recorder.OutboundEvent.FAILED);

    assertThat(
            registry
                .getCounter(
                    new MetricID(
                        "limiter.outbound",
                        new Tag("policy", "partner"),
                        new Tag("event", "failed")))
                .getCount())
        .isEqualTo(2);
  }

  @Test
  void recordsNearLimitShapingAndStoreDuration() {
    recorder.nearLimit("api");
    recorder.shapingDelay("api", 250_000_000);
    recorder.storeDuration("redis", 300_000);
    recorder.storeDuration("redis", 500_000);

    assertThat(
            registry
                .getCounter(new MetricID("limiter.near.limit", new Tag("policy", "api")))
                .getCount())
        .isEqualTo(1);
    assertThat(
            registry
                .getTimer(new MetricID("limiter.shaping.delay", new Tag("policy", "api")))
                .getElapsedTime())
        .isEqualTo(Duration.ofMillis(250));
    assertThat(
            registry
                .getTimer(new MetricID("limiter.store.duration", new Tag("store", "redis")))
                .getCount())
        .isEqualTo(2);
  }

  @Test
  void gaugesReadTheStoreWhenScraped() {
    InMemoryStore store = InMemoryStore.create();
    recorder.watch(StoreGauges.of("memory", store));
    store.decide(Policy.fixedWindow("api", Limit.of(5, Duration.ofSeconds(1))), "client-1", 1);

    assertThat(registry.getGauge(new MetricID("limiter.memory.keys")).getValue().longValue())
        .isEqualTo(1);
    assertThat(
            registry
                .getGauge(new MetricID("limiter.store.circuit.state", new Tag("store", "memory")))
                .getValue()
                .intValue())
        .isZero();
  }

  @Test
  void anAdaptiveLimitsGaugesReadItTaggedByPolicy() {
    recorder.watch(
        new ConcurrencyGauges("backend", () -> 12, () -> 5, () -> 30_000_000, () -> 20_000_000));

    assertThat(mpGauge("limiter.concurrency.limit")).isEqualTo(12);
    assertThat(mpGauge("limiter.concurrency.in.flight")).isEqualTo(5);
    assertThat(mpGauge("limiter.concurrency.latency")).isEqualTo(0.03);
    assertThat(mpGauge("limiter.concurrency.latency.baseline")).isEqualTo(0.02);
  }

  private double mpGauge(String name) {
    return registry
        .getGauge(new MetricID(name, new Tag("policy", "backend")))
        .getValue()
        .doubleValue();
  }

  @Test
  void countsAdminChangesByPolicyAndAction() {
    recorder.adminChange("api", "override-block");
    recorder.adminChange("api", "override-block");

    assertThat(
            registry
                .getCounter(
                    new MetricID(
                        "limiter.admin.changes",
                        new Tag("policy", "api"),
                        new Tag("action", "override-block")))
                .getCount())
        .isEqualTo(2);
  }
}
