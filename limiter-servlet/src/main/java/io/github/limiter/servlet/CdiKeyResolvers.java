package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import java.util.ArrayList;
import java.util.List;

/** KeyResolver beans. Loaded only once the CDI API is known to be on the class path. */
final class CdiKeyResolvers {

  private CdiKeyResolvers() {}

  /** The resolver beans of the running CDI container; none if no container runs. */
  static List<KeyResolver> find() {
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
}
