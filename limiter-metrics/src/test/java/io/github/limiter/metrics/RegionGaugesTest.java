package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.metrics.RegionBudgets;
import io.github.limiter.internal.metrics.StoreGauges;
import io.github.limiter.redis.RedisStore;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.smallrye.metrics.legacyapi.LegacyMetricRegistryAdapter;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A global policy's budget in its region (docs/multi-region.md) on each backend's gauges, {@code
 * limiter.region.*{policy,region}}, read from a Redis store in region {@code east} on real
 * redis-servers: one node that took requests, then closed and gave its pool back.
 */
class RegionGaugesTest {

  static final Policy POLICY =
      Policy.tokenBucket("global-api", Limit.bucket(10, Duration.ofSeconds(1), 1000));

  static RedisServer global;
  static RedisServer east;
  static RedisStore store;
  static RegionBudgets.Share share;

  @BeforeAll
  static void start() {
    global = RedisServer.start("gauges-global");
    east = RedisServer.start("gauges-east");
    ManualClock clock = ManualClock.random(21);
    store =
        RedisStore.builder()
            .url(east.url())
            .keyPrefix("gauges:" + UUID.randomUUID() + ":")
            .callerClock(clock)
            .lease(POLICY.name(), Duration.ofMillis(100), Duration.ofSeconds(5), 50, 0.25)
            .region("east", global.url(), Set.of(POLICY.name()))
            .build();
    RegionBudgets budgets = store.view(RegionBudgets.class).orElseThrow();
    // Refills run in the background: ask until the pool has paid a few requests.
    int[] admitted = {0};
    Await.until(
        "requests admitted from the region's pool",
        Duration.ofSeconds(10),
        () -> {
          clock.advance(1_000_000);
          if (store.decide(POLICY, "k", 1).isAllowed()) {
            admitted[0]++;
          }
          return admitted[0] >= 5;
        });
    store.close();
    share = budgets.share(POLICY.name()).orElseThrow();
    assertThat(share.leased()).isEqualTo(admitted[0]);
    assertThat(share.returned()).isPositive();
  }

  @AfterAll
  static void stop() {
    if (east != null) {
      east.close();
    }
    if (global != null) {
      global.close();
    }
  }

  @Test
  void micrometerGaugesTheRegionsBudgetByPolicyAndRegion() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new MicrometerRecorder(registry).watch(StoreGauges.of("redis", store));

    assertThat(gauge(registry, "limiter.region.held")).isEqualTo(share.held());
    assertThat(gauge(registry, "limiter.region.leased")).isEqualTo(share.leased());
    assertThat(gauge(registry, "limiter.region.returned")).isEqualTo(share.returned());
    assertThat(gauge(registry, "limiter.region.stranded")).isEqualTo(share.stranded());
  }

  private static double gauge(SimpleMeterRegistry registry, String name) {
    return registry.get(name).tags("policy", POLICY.name(), "region", "east").gauge().value();
  }

  @Test
  void microProfileGaugesTheRegionsBudgetByPolicyAndRegion() {
    // A registry of its own: SharedMetricRegistries would add one to Micrometer's global registry,
    // for good, which BackendRecorderFactoryTest expects empty.
    MetricRegistry registry =
        new LegacyMetricRegistryAdapter(
            MetricRegistry.APPLICATION_SCOPE, new SimpleMeterRegistry());
    new MicroProfileRecorder(registry).watch(StoreGauges.of("redis", store));
    Map<String, Long> expected =
        Map.of(
            "limiter.region.held", share.held(),
            "limiter.region.leased", share.leased(),
            "limiter.region.returned", share.returned(),
            "limiter.region.stranded", share.stranded());
    expected.forEach(
        (name, value) -> {
          MetricID id =
              new MetricID(name, new Tag("policy", POLICY.name()), new Tag("region", "east"));
          assertThat(registry.getGauge(id).getValue().longValue()).as(name).isEqualTo(value);
        });
  }

  @Test
  void openTelemetryGaugesTheRegionsBudgetByPolicyAndRegion() {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    try (SdkMeterProvider provider =
        SdkMeterProvider.builder().registerMetricReader(reader).build()) {
      new OpenTelemetryRecorder(provider.get(OpenTelemetryRecorder.SCOPE))
          .watch(StoreGauges.of("redis", store));

      Collection<MetricData> metrics = reader.collectAllMetrics();
      assertThat(point(metrics, "limiter.region.held").getValue()).isEqualTo(share.held());
      assertThat(point(metrics, "limiter.region.leased").getValue()).isEqualTo(share.leased());
      assertThat(point(metrics, "limiter.region.returned").getValue()).isEqualTo(share.returned());
      assertThat(point(metrics, "limiter.region.stranded").getValue()).isEqualTo(share.stranded());
      assertThat(point(metrics, "limiter.region.leased").getAttributes())
          .isEqualTo(
              Attributes.of(
                  AttributeKey.stringKey("policy"),
                  POLICY.name(),
                  AttributeKey.stringKey("region"),
                  "east"));
    }
  }

  private static LongPointData point(Collection<MetricData> metrics, String name) {
    MetricData metric =
        metrics.stream().filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
    return metric.getLongGaugeData().getPoints().iterator().next();
  }
}
