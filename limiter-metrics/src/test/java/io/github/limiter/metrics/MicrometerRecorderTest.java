package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
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
