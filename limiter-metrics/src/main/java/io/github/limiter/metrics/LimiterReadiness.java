package io.github.limiter.metrics;

import io.github.limiter.StoreHealth;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.memory.InMemoryStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The {@code limiter} readiness check: DOWN while a store that a {@code failure=fail-closed} policy
 * needs cannot decide (its breaker is open, or it is unreachable), because every request of that
 * policy is then refused; UP otherwise, with the store's name, breaker state, last error and key
 * count. It is deliberately no liveness check: restarting a node does not bring Redis back.
 *
 * <p>It reads the application's {@link LimiterRuntime}: limiter-cdi's bean once it is built, and
 * the one a filter keeps in the {@code ServletContext} when there is no bean; it builds none.
 *
 * <p>A bean only where the MicroProfile Health API is present ({@code META-INF/beans.xml}).
 */
@Readiness
@ApplicationScoped
public class LimiterReadiness implements HealthCheck {

  /** The check's name on {@code /health/ready}. */
  public static final String NAME = "limiter";

  @Inject BeanManager beans;

  @Override
  public HealthCheckResponse call() {
    return check(runtimes().stream().map(LimiterRuntime::readiness).toList());
  }

  /** The check over the readiness of each runtime's store. */
  static HealthCheckResponse check(List<LimiterRuntime.Readiness> stores) {
    boolean up = true;
    Map<String, Object> data = new LinkedHashMap<>();
    for (int i = 0; i < stores.size(); i++) {
      LimiterRuntime.Readiness entry = stores.get(i);
      StoreHealth health = entry.store().health();
      boolean needed = !entry.failClosed().isEmpty();
      up &= health.up() || !needed;
      // One runtime is the rule; a second (a filter's of its own configuration) gets its index.
      String prefix = i == 0 ? "" : i + ".";
      data.put(prefix + "store", entry.name());
      data.put(prefix + "breaker", health.breaker());
      health.lastError().ifPresent(error -> data.put(prefix + "last-error", error));
      health.lastErrorAt().ifPresent(at -> data.put(prefix + "last-error-at", at.toString()));
      entry
          .store()
          .view(InMemoryStore.class)
          .ifPresent(m -> data.put(prefix + "keys", (long) m.size()));
      if (needed) {
        data.put(prefix + "fail-closed", String.join(",", entry.failClosed()));
      }
      // The policies of the modules' sections, by section: outbound=partner,...
      entry
          .sections()
          .forEach((section, names) -> data.put(prefix + section, String.join(",", names)));
    }
    return new HealthCheckResponse(
        NAME,
        up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
        Optional.of(data));
  }

  /** The application's runtimes that exist now, creating none. */
  private Set<LimiterRuntime> runtimes() {
    Set<LimiterRuntime> found = new LinkedHashSet<>();
    Bean<?> bean = beans.resolve(beans.getBeans(LimiterRuntime.class));
    if (bean != null
        && beans.getContext(bean.getScope()).get(bean) instanceof LimiterRuntime built) {
      found.add(built);
    }
    if (servletContextAttribute() instanceof LimiterRuntime kept) {
      found.add(kept);
    }
    return found;
  }

  /**
   * The runtime a filter keeps in the {@code ServletContext}, through the container's built-in
   * bean; null without the servlet API (read reflectively, so that the check needs no servlet API).
   */
  private Object servletContextAttribute() {
    try {
      Class<?> type =
          Class.forName(
              "jakarta.servlet.ServletContext", false, LimiterReadiness.class.getClassLoader());
      Bean<?> context = beans.resolve(beans.getBeans(type));
      if (context == null) {
        return null;
      }
      Object reference = beans.getReference(context, type, beans.createCreationalContext(context));
      return type.getMethod("getAttribute", String.class)
          .invoke(reference, LimiterRuntime.ATTRIBUTE);
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return null; // no servlet API, or no servlet context here
    }
  }
}
