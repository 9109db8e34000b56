package io.github.limiter.jaxrs;

import io.github.limiter.KeyResolver;
import io.github.limiter.internal.runtime.LimiterRuntime;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.util.ArrayList;
import java.util.List;

/**
 * The beans the filters use from the running CDI container: limiter-cdi's runtime and the key
 * resolvers. Loaded only once the CDI API is known to be on the class path.
 */
final class CdiRuntime {

  private CdiRuntime() {}

  /** The application's runtime bean; null without limiter-cdi or a running container. */
  static LimiterRuntime runtime() {
    return bean(LimiterRuntime.class);
  }

  /**
   * Where the filter records each request for {@code @Limited}: the client proxy of the
   * request-scoped {@link FilteredRequest}; null without a running container or that bean (Quarkus
   * removes it as unused without limiter-cdi, which reads it).
   */
  static FilteredRequest recorder() {
    return bean(FilteredRequest.class);
  }

  private static <T> T bean(Class<T> type) {
    try {
      Instance<T> bean = CDI.current().select(type);
      return bean.isResolvable() ? bean.get() : null;
    } catch (RuntimeException e) {
      return null; // the API is present but no container runs for this application
    }
  }

  /** The resolver beans; none if no container runs. */
  static List<KeyResolver> resolvers() {
    List<KeyResolver> found = new ArrayList<>();
    try {
      for (KeyResolver resolver : CDI.current().select(KeyResolver.class)) {
        found.add(resolver);
      }
    } catch (IllegalStateException e) {
      return List.of(); // the API is present but no container runs for this application
    }
    return found;
  }
}
