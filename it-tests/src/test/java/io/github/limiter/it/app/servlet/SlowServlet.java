package io.github.limiter.it.app.servlet;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A backend that takes 300 ms a request, behind an adaptive concurrency limit: {@code /overload/*}
 * for sheddable requests, {@code /vital/*} for critical ones (routes in
 * src/test/webapps/annotated-filter).
 */
@WebServlet(urlPatterns = {"/overload/*", "/vital/*"})
public class SlowServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    try {
      Thread.sleep(300);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    response.setContentType("text/plain");
    response.getWriter().print("done " + request.getServletPath());
  }
}
