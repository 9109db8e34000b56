package io.github.limiter.cdi.jaxrs;

import io.github.limiter.internal.admission.RequestFrame;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Sends the {@code RateLimit} headers of the tightest {@link io.github.limiter.cdi.Limited}
 * admission of a JAX-RS request, as the servlet filter does for its routes. It collects only what
 * runs on the request's thread, and adds nothing to a response that already has the headers (such
 * as a rejection). Found by JAX-RS {@code @Provider} scanning.
 */
@Provider
public class RateLimitHeadersFilter implements ContainerRequestFilter, ContainerResponseFilter {

  private static final String FRAME = RateLimitHeadersFilter.class.getName() + ".frame";

  @Override
  public void filter(ContainerRequestContext request) {
    request.setProperty(FRAME, RequestFrame.openEnclosing());
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (!(request.getProperty(FRAME) instanceof RequestFrame.Enclosing frame)) {
      return;
    }
    frame.close();
    request.removeProperty(FRAME);
    if (!frame.isEmpty()
        && !response.getHeaders().containsKey("RateLimit")
        && !response.getHeaders().containsKey("X-RateLimit-Remaining")) {
      frame.headers(response.getHeaders()::add);
    }
  }
}
