package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.MetricsSettings;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.Recorder.Verdict;
import io.github.limiter.internal.metrics.RecorderFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.Test;

/**
 * Under a CDI container (Weld) the backends are found as beans, as on WildFly, where the Micrometer
 * subsystem offers a {@code MeterRegistry} bean; and the readiness check is a bean of this jar.
 */
@EnableWeld
class CdiDiscoveryTest {

  /** What the server would offer. */
  static class ServerBeans {
    static final SimpleMeterRegistry REGISTRY = new SimpleMeterRegistry();

    @Produces
    @Singleton
    MeterRegistry registry() {
      return REGISTRY;
    }
  }

  @WeldSetup
  WeldInitiator weld =
      WeldInitiator.from(
              WeldInitiator.createWeld()
                  .addBeanClass(LimiterReadiness.class) // as META-INF/beans.xml adds it
                  .addBeanClass(ServerBeans.class))
          .build();

  @Test
  void theMeterRegistryBeanIsTheBackend() {
    Recorder recorder = RecorderFactory.load(MetricsSettings.DEFAULTS, getClass().getClassLoader());
    recorder.decision("hello", Verdict.REJECTED, true);

    assertThat(recorder).isInstanceOf(MicrometerRecorder.class);
    assertThat(
            ServerBeans.REGISTRY
                .get("limiter.decisions")
                .tags("policy", "hello", "outcome", "rejected", "verified", "true")
                .counter()
                .count())
        .isEqualTo(1);
  }

  @Test
  void theReadinessCheckIsABeanNamedLimiter() {
    HealthCheck check = weld.select(HealthCheck.class, Readiness.Literal.INSTANCE).get();

    assertThat(check.call().getName()).isEqualTo("limiter");
  }
}
