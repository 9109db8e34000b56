package io.github.limiter.metrics;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;

/**
 * Adds the {@link LimiterReadiness} check when the server offers MicroProfile Health, and the
 * {@link MicroProfileRegistry} lookup when it offers MicroProfile Metrics. This jar has no {@code
 * beans.xml}, so no class of it becomes a bean unless added here: a server without Health never
 * loads the check.
 */
public class MetricsExtension implements Extension {

  static final String HEALTH_API = "org.eclipse.microprofile.health.HealthCheck";

  void addReadiness(@Observes BeforeBeanDiscovery discovery) {
    if (BackendRecorderFactory.present(HEALTH_API)) {
      discovery.addAnnotatedType(LimiterReadiness.class, LimiterReadiness.class.getName());
    }
  }

  void addMetricRegistryLookup(@Observes BeforeBeanDiscovery discovery) {
    if (BackendRecorderFactory.present(BackendRecorderFactory.MICROPROFILE)) {
      discovery.addAnnotatedType(MicroProfileRegistry.class, MicroProfileRegistry.class.getName());
    }
  }
}
