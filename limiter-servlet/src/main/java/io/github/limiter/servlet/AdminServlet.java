package io.github.limiter.servlet;

import io.github.limiter.internal.admin.AdminApi;
import io.github.limiter.internal.admin.AdminReply;
import io.github.limiter.internal.config.AdminSettings;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.microprofile.ServletRequestView;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * The admin API and the operator console (see {@link AdminApi}) on a servlet container, at {@code
 * limiter.admin.path} when {@code limiter.admin.enabled}: it hands each call to the one {@link
 * AdminApi} and writes its reply.
 */
final class AdminServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  private final transient AdminApi api;

  /**
   * @param runtime the application's runtime, found on each call; null while there is none (no
   *     policy to list yet)
   */
  AdminServlet(AdminSettings settings, Supplier<LimiterRuntime> runtime) {
    this.api = new AdminApi(settings, runtime);
  }

  AdminApi api() {
    return api;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String uri = request.getRequestURI();
    String base = request.getContextPath() + request.getServletPath();
    String rest = uri.length() > base.length() ? uri.substring(base.length()) : "";
    AdminReply reply =
        api.handle(
            request.getMethod(),
            uri,
            rest,
            new ServletRequestView(request),
            request.getInputStream());
    response.setStatus(reply.status());
    reply.headers().forEach(response::setHeader);
    if (reply.contentType() != null) {
      response.setContentType(reply.contentType());
      response.setContentLength(reply.body().length);
      response.getOutputStream().write(reply.body());
    }
  }
}
