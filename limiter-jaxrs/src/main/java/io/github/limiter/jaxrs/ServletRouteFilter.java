package io.github.limiter.jaxrs;

import io.github.limiter.internal.runtime.HttpRoutes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;
import java.util.logging.Logger;

/**
 * The filter where Jakarta REST runs on a servlet container (Payara, WildFly, Jersey or RESTEasy on
 * a servlet): the client address is the servlet request's, which Jakarta REST injects. Used only
 * when the servlet API is on the class path.
 */
@PreMatching // not inherited
class ServletRouteFilter extends RouteFilter {

  @Context private HttpServletRequest servletRequest;

  ServletRouteFilter(HttpRoutes routes, FilteredRequest recorder, String name, Logger logger) {
    super(routes, recorder, name, logger);
  }

  @Override
  String remoteAddress(ContainerRequestContext request) {
    try {
      return servletRequest == null ? null : servletRequest.getRemoteAddr();
    } catch (RuntimeException e) {
      return null; // no servlet request behind this one (a runtime that has the API, not the chain)
    }
  }
}
