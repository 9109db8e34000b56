package io.github.limiter.jaxrs;

import io.github.limiter.internal.admin.AdminApi;
import jakarta.servlet.ServletContext;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Context;

/**
 * The admin filter where Jakarta REST runs on a servlet container: it steps aside when
 * limiter-servlet serves the admin API of the same application (at the admin path below the context
 * path), so that an application has one admin API. Used only when the servlet API is on the class
 * path.
 */
@PreMatching // not inherited
final class ServletAdminFilter extends AdminFilter {

  @Context private ServletContext context;

  ServletAdminFilter(AdminApi api) {
    super(api);
  }

  @Override
  boolean servedByServlet() {
    try {
      return context != null && context.getAttribute(AdminApi.ATTRIBUTE) != null;
    } catch (RuntimeException e) {
      // A runtime with the servlet API on its class path but no servlet behind this request.
      return false;
    }
  }
}
