package io.github.limiter.jaxrs;

import io.github.limiter.internal.admin.AdminApi;
import io.github.limiter.internal.admin.AdminReply;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;

/**
 * The admin API and the operator console (see {@link AdminApi}) where Jakarta REST serves them: at
 * {@code limiter.admin.path} below the application's base URI, when {@code limiter.admin.enabled}.
 * It hands each call to the one {@link AdminApi} and aborts the request with its reply. A filter,
 * not a resource, because the path is a setting and a resource's {@code @Path} is a constant.
 * Pre-matching, after the route filter: as the servlet filter's routes precede the admin servlet.
 */
@PreMatching
class AdminFilter implements ContainerRequestFilter {

  private final AdminApi api;

  AdminFilter(AdminApi api) {
    this.api = api;
  }

  /** Whether limiter-servlet serves the admin API of this application already. */
  boolean servedByServlet() {
    return false;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    // The path below the application's base as it came: Quarkus REST has no getPath(false).
    String uri = request.getUriInfo().getRequestUri().getRawPath();
    String app = request.getUriInfo().getBaseUri().getRawPath();
    if (!app.endsWith("/") || !uri.startsWith(app)) {
      return;
    }
    String path = uri.substring(app.length() - 1);
    String base = api.path();
    if (!(path.equals(base) || path.startsWith(base + "/")) || servedByServlet()) {
      return;
    }
    answer(request, () -> request.abortWith(reply(request, uri, path.substring(base.length()))));
  }

  /**
   * Runs {@code call}, which may read the request's body and use the store: here, on this thread.
   */
  void answer(ContainerRequestContext request, Runnable call) {
    call.run();
  }

  private Response reply(ContainerRequestContext request, String uri, String rest) {
    AdminReply reply =
        api.handle(
            request.getMethod(),
            uri,
            rest,
            new JaxrsRequestView(request, null),
            request.getEntityStream());
    Response.ResponseBuilder response = Response.status(reply.status());
    reply.headers().forEach(response::header);
    if (reply.contentType() != null) {
      response.type(reply.contentType()).entity(reply.body());
    }
    return response.build();
  }
}
