package io.github.limiter.sample.quarkus;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /api/route}: limited by the servlet filter's route policy {@code conformance-route}. A
 * servlet, not a Quarkus REST resource: Quarkus REST serves its resources outside the servlet
 * filter chain, so only what undertow serves passes the RateLimitFilter.
 */
@WebServlet("/api/route")
public class RouteServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain");
    response.getWriter().write("route");
  }
}
