package io.github.limiter.servlet;

import jakarta.servlet.ServletException;
import java.io.IOException;

/**
 * The CDI request context of a request resumed after its shaping wait. Payara fires no {@code
 * ServletRequestListener} on an async dispatch, so Weld's request context is not active there, and
 * a {@code @RequestScoped} bean (a JAX-RS resource, say) fails with WELD-001303. WildFly fires it,
 * and the context is active. Where none is, the resumed request gets its own for the rest of the
 * chain, as an unheld request would have.
 */
@FunctionalInterface
interface RequestScope {

  /** No CDI: the chain runs as it is. */
  RequestScope NONE = Body::run;

  /** Runs {@code body} with a request context active. */
  void around(Body body) throws IOException, ServletException;

  /** The rest of the filter chain. */
  @FunctionalInterface
  interface Body {
    void run() throws IOException, ServletException;
  }

  /** The request scope of the application of {@code loader}: call it on a request thread. */
  static RequestScope find(ClassLoader loader) {
    return ResolverDiscovery.hasCdi(loader) ? CdiRequestScope.find() : NONE;
  }
}
