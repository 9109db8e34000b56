package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.internal.runtime.LimiterRuntime;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.util.ArrayList;
import java.util.List;

/**
 * The beans the filter uses from the running CDI container. Loaded only once the CDI API is known
 * to be on the class path.
 */
final class CdiLookups {

  private CdiLookups() {}

  /** The resolver beans of the running CDI container; none if no container runs. */
  static List<KeyResolver> resolvers() {
    Instance<KeyResolver> beans;
    try {
      beans = CDI.current().select(KeyResolver.class);
    } catch (RuntimeException e) {
      // The API is present but no container is running for this application.
      return List.of();
    }
    List<KeyResolver> found = new ArrayList<>();
    for (KeyResolver resolver : beans) {
      found.add(resolver);
    }
    return found;
  }

  /**
   * The application's runtime, the bean that limiter-cdi produces; null without limiter-cdi or a
   * running container.
   */
  static LimiterRuntime runtime() {
    try {
      Instance<LimiterRuntime> bean = CDI.current().select(LimiterRuntime.class);
      return bean.isResolvable() ? bean.get() : null;
    } catch (RuntimeException e) {
      return null; // the API is present but no container is running for this application
    }
  }
}
