package io.github.limiter.metrics;

import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * The application's {@code MetricRegistry}, looked up through an injection point of our own. Payara
 * produces the registry from the {@code InjectionPoint} it is injected into, and fails on a lookup
 * with {@code CDI.current().select(...)}, which has none. A bean only where the MicroProfile
 * Metrics API is present ({@code META-INF/beans.xml}).
 */
@Dependent
class MicroProfileRegistry {

  @Inject Instance<MetricRegistry> registries;

  /** The registry, if the server offers one. */
  Optional<MetricRegistry> get() {
    return registries.isResolvable() ? Optional.of(registries.get()) : Optional.empty();
  }
}
