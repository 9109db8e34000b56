package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.MetricsSettings;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.Recorder.Verdict;
import io.github.limiter.internal.metrics.RecorderFactory;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Backends found without CDI, as in Tomcat or Jetty: through the global registries, and only when
 * one was set up. (This test's class path has the CDI API but no container, as a plain servlet
 * container with the API jar would.)
 */
class BackendRecorderFactoryTest {

  private final ClassLoader loader = getClass().getClassLoader();
  private final SimpleMeterRegistry micrometer = new SimpleMeterRegistry();

  @AfterEach
  void reset() {
    Metrics.globalRegistry.remove(micrometer);
    Metrics.globalRegistry.clear();
    GlobalOpenTelemetry.resetForTest();
  }

  @Test
  void globalRegistriesThatWereNotSetUpGiveTheNoop() {
    assertThat(RecorderFactory.load(MetricsSettings.DEFAULTS, loader)).isSameAs(Recorder.NOOP);
  }

  @Test
  void micrometersGlobalRegistryRecordsOnceARegistryIsAdded() {
    Metrics.addRegistry(micrometer);

    Recorder recorder = RecorderFactory.load(MetricsSettings.DEFAULTS, loader);
    recorder.decision("api", Verdict.REJECTED, true);

    assertThat(recorder).isInstanceOf(MicrometerRecorder.class);
    assertThat(
            micrometer
                .get("limiter.decisions")
                .tags("outcome", "rejected", "verified", "true")
                .counter()
                .count())
        .isEqualTo(1);
  }

  @Test
  void bothGlobalBackendsFanOut() {
    Metrics.addRegistry(micrometer);
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    GlobalOpenTelemetry.set(
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build())
            .build());

    Recorder recorder = RecorderFactory.load(MetricsSettings.DEFAULTS, loader);
    recorder.decision("api", Verdict.ADMITTED, true);

    assertThat(recorder.toString()).contains("OpenTelemetry", "Micrometer");
    assertThat(
            micrometer
                .get("limiter.decisions")
                .tags("outcome", "admitted", "verified", "true")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(reader.collectAllMetrics())
        .anySatisfy(m -> assertThat(m.getName()).isEqualTo("limiter.decisions"));
  }

  @Test
  void aBackendSwitchedOffIsNotUsed() {
    Metrics.addRegistry(micrometer);

    assertThat(RecorderFactory.load(new MetricsSettings(true, true, true, false), loader))
        .isSameAs(Recorder.NOOP);
    assertThat(RecorderFactory.load(new MetricsSettings(false, true, true, true), loader))
        .isSameAs(Recorder.NOOP);
  }

  @Test
  void theMicroProfileBackendNeedsACdiContainer() {
    // Its registry is found only as a CDI bean; with none running, the API alone records nothing.
    assertThat(BackendRecorderFactory.present(BackendRecorderFactory.MICROPROFILE)).isTrue();
    assertThat(RecorderFactory.load(new MetricsSettings(true, true, false, false), loader))
        .isSameAs(Recorder.NOOP);
  }
}
