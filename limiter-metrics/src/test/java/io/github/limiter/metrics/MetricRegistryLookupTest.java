package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.MetricsSettings;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.Recorder.Verdict;
import io.github.limiter.internal.metrics.RecorderFactory;
import io.smallrye.metrics.SharedMetricRegistries;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.annotation.RegistryScope;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code MetricRegistry} bean as Payara 6 produces it: a dependent producer that reads the
 * annotations of the injection point it is injected into, and fails on a lookup without one ({@code
 * CDI.current().select}).
 */
@EnableWeld
class MetricRegistryLookupTest {

  static class PayaraLikeBeans {
    @Produces
    static MetricRegistry registry(InjectionPoint injectionPoint) {
      RegistryScope scope =
          injectionPoint.getAnnotated().getAnnotation(RegistryScope.class); // NPE without one
      return SharedMetricRegistries.getOrCreate(
          scope == null ? MetricRegistry.APPLICATION_SCOPE : scope.scope());
    }
  }

  @WeldSetup
  WeldInitiator weld =
      WeldInitiator.from(
              WeldInitiator.createWeld()
                  .addBeanClass(MicroProfileRegistry.class) // as META-INF/beans.xml adds it
                  .addBeanClass(PayaraLikeBeans.class))
          .build();

  @AfterEach
  void drop() {
    SharedMetricRegistries.dropAll();
  }

  @Test
  void theRegistryIsFoundThroughAnInjectionPoint() {
    Recorder recorder = RecorderFactory.load(MetricsSettings.DEFAULTS, getClass().getClassLoader());
    recorder.decision("hello", Verdict.REJECTED, true);

    assertThat(recorder.toString())
        .contains("MicroProfileMetrics"); // beside any global registry other tests left
    MetricRegistry registry = SharedMetricRegistries.getOrCreate(MetricRegistry.APPLICATION_SCOPE);
    assertThat(
            registry
                .getCounter(
                    new MetricID(
                        "limiter.decisions",
                        new Tag("policy", "hello"),
                        new Tag("outcome", "rejected"),
                        new Tag("verified", "true")))
                .getCount())
        .isEqualTo(1);
  }
}
