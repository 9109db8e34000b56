package io.github.limiter.metrics;

import io.github.limiter.StoreHealth;
import io.github.limiter.internal.metrics.OpenStores;
import io.github.limiter.memory.InMemoryStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The {@code limiter} readiness check: DOWN while a store that a {@code failure=fail-closed} policy
 * needs cannot decide (its breaker is open, or it is unreachable), because every request of that
 * policy is then refused; UP otherwise, with the store's name, breaker state, last error and key
 * count. It is deliberately no liveness check: restarting a node does not bring Redis back.
 *
 * <p>A bean only where the MicroProfile Health API is present ({@code META-INF/beans.xml}).
 */
@Readiness
@ApplicationScoped
public class LimiterReadiness implements HealthCheck {

  /** The check's name on {@code /health/ready}. */
  public static final String NAME = "limiter";

  @Override
  public HealthCheckResponse call() {
    return check(OpenStores.all());
  }

  /** The check over {@code stores}. */
  static HealthCheckResponse check(List<OpenStores.OpenStore> stores) {
    boolean up = true;
    Map<String, Object> data = new LinkedHashMap<>();
    for (int i = 0; i < stores.size(); i++) {
      OpenStores.OpenStore entry = stores.get(i);
      StoreHealth health = entry.store().health();
      boolean needed = !entry.failClosed().isEmpty();
      up &= health.up() || !needed;
      // One store is the rule; a second (the filter's beside the interceptor's) gets its index.
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
    }
    return new HealthCheckResponse(
        NAME,
        up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN,
        Optional.of(data));
  }
}
