package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.metrics.ConcurrencyGauges;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.Recorder.Verdict;
import io.github.limiter.internal.metrics.StoreGauges;
import io.github.limiter.memory.InMemoryStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Micrometer recorder against Micrometer's own registries. */
class MicrometerRecorderTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Recorder recorder = new MicrometerRecorder(registry);

  @Test
  void countsDecisionsByPolicyOutcomeAndVerified() {
    // When
    recorder.decision("api", Verdict.ADMITTED, true);
    recorder.decision("api", Verdict.ADMITTED, true);
    recorder.decision("api", Verdict.REJECTED, true);
    recorder.decision("api", Verdict.UNAVAILABLE, false);
    recorder.decision("login", Verdict.DRY_RUN_REJECTED, true);

    // Then
    assertThat(count("api", "admitted", "true")).isEqualTo(2);
    assertThat(count("api", "rejected", "true")).isEqualTo(1);
    assertThat(count("api", "unavailable", "false")).isEqualTo(1);
    assertThat(count("api", "admitted", "false")).isZero();
    assertThat(count("login", "dry-run-rejected", "true")).isEqualTo(1);
  }

  private double count(String policy, String outcome, String verified) {
    return registry
        .get("limiter.decisions")
        .tags("policy", policy, "outcome", outcome, "verified", verified)
        .counter()
        .count();
  }

  @Test
  void countsOutboundEventsByPolicyAndEvent() {
    recorder.outbound("partner", Recorder.OutboundEvent.CALLED);
    recorder.outbound("partner", Recorder.OutboundEvent.CALLED);
    recorder.outbound("partner", Recorder.OutboundEvent.REFUSED);
    recorder.outbound("other", Recorder.OutboundEvent.BLOCKED);

    assertThat(outbound("partner", "called")).isEqualTo(2);
    assertThat(outbound("partner", "refused")).isEqualTo(1);
    assertThat(outbound("partner", "blocked")).isZero();
    assertThat(outbound("other", "blocked")).isEqualTo(1);
  }

  private double outbound(String policy, String event) {
    return registry
        .get("limiter.outbound")
        .tags("policy", policy, "event", event)
        .counter()
        .count();
  }

  @Test
  void recordsNearLimitShapingAndStoreDuration() {
    recorder.nearLimit("api");
    recorder.shapingDelay("api", TimeUnit.MILLISECONDS.toNanos(250));
    recorder.storeDuration("redis", 300_000);
    recorder.storeDuration("redis", 500_000);

    assertThat(registry.get("limiter.near.limit").tag("policy", "api").counter().count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("limiter.shaping.delay")
                .tag("policy", "api")
                .timer()
                .totalTime(TimeUnit.MILLISECONDS))
        .isEqualTo(250);
    assertThat(registry.get("limiter.store.duration").tag("store", "redis").timer().count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("limiter.store.duration")
                .tag("store", "redis")
                .timer()
                .totalTime(TimeUnit.NANOSECONDS))
        .isEqualTo(800_000);
  }

  @Test
  void gaugesReadTheStoreWhenScraped() {
    InMemoryStore store = InMemoryStore.create();
    recorder.watch(StoreGauges.of("memory", store));
    assertThat(registry.get("limiter.memory.keys").gauge().value()).isZero();

    store.decide(Policy.fixedWindow("api", Limit.of(5, Duration.ofSeconds(1))), "client-1", 1);

    assertThat(registry.get("limiter.memory.keys").gauge().value()).isEqualTo(1);
    assertThat(registry.get("limiter.store.circuit.state").tag("store", "memory").gauge().value())
        .isZero();
  }

  @Test
  void anAdaptiveLimitsGaugesReadItWhenScrapedTaggedByPolicyOnly() {
    long[] values = {12, 5, 30_000_000, 20_000_000};
    recorder.watch(
        new ConcurrencyGauges(
            "backend", () -> values[0], () -> values[1], () -> values[2], () -> values[3]));

    assertThat(gauge("limiter.concurrency.limit")).isEqualTo(12);
    assertThat(gauge("limiter.concurrency.in.flight")).isEqualTo(5);
    assertThat(gauge("limiter.concurrency.latency")).isEqualTo(0.03);
    assertThat(gauge("limiter.concurrency.latency.baseline")).isEqualTo(0.02);
    values[0] = 9;
    assertThat(gauge("limiter.concurrency.limit")).isEqualTo(9);
    assertThat(registry.get("limiter.concurrency.limit").gauge().getId().getTags()).hasSize(1);
  }

  private double gauge(String name) {
    return registry.get(name).tag("policy", "backend").gauge().value();
  }

  @Test
  void prometheusShowsTheDocumentedNames() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Recorder onPrometheus = new MicrometerRecorder(prometheus);

    onPrometheus.decision("hello", Verdict.REJECTED, true);
    onPrometheus.storeDuration("memory", 1_000);
    onPrometheus.watch(StoreGauges.of("memory", InMemoryStore.create()));

    String scrape = prometheus.scrape();
    assertThat(scrape)
        .containsPattern(
            "limiter_decisions_total\\{[^}]*outcome=\"rejected\"[^}]*policy=\"hello\"[^}]*verified=\"true\"[^}]*} 1.0");
    assertThat(scrape).contains("limiter_store_duration_seconds_count{store=\"memory\"} 1");
    assertThat(scrape).contains("limiter_store_circuit_state{store=\"memory\"} 0");
    assertThat(scrape).contains("limiter_memory_keys 0");
  }

  @Test
  void countsAdminChangesByPolicyAndAction() {
    recorder.adminChange("api", "limits");
    recorder.adminChange("api", "limits");
    recorder.adminChange("api", "trial-apply");

    assertThat(
            registry
                .get("limiter.admin.changes")
                .tags("policy", "api", "action", "limits")
                .counter()
                .count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("limiter.admin.changes")
                .tags("policy", "api", "action", "trial-apply")
                .counter()
                .count())
        .isEqualTo(1);
  }
}
