package io.github.limiter.it.app.servlet;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Answers {@code ok <method> <path>} on every path of the filter suites. Async-supported, so that
 * the filter may hold a request for leaky-bucket shaping.
 */
@WebServlet(urlPatterns = "/*", asyncSupported = true)
public class EchoServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain");
    response.setCharacterEncoding("UTF-8");
    String path =
        request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    response.getWriter().print("ok " + request.getMethod() + " " + path);
  }
}
