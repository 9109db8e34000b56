package io.github.limiter.it.app.cdi;

import io.github.limiter.cdi.RateLimitExceededException;
import io.github.limiter.internal.render.RateLimitResponse;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * {@code GET /greet?user=U} calls the limited bean; a rejection is written from the exception's
 * rendered response, as a servlet application would.
 */
@WebServlet("/greet")
public class GreetServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Inject transient GreetingService greetings;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    try {
      String greeting = greetings.greet(request.getParameter("user"));
      response.setContentType("text/plain");
      response.getWriter().print(greeting);
    } catch (RateLimitExceededException e) {
      RateLimitResponse rejection = e.response();
      response.setStatus(rejection.status());
      for (Map.Entry<String, String> header : rejection.headers()) {
        response.addHeader(header.getKey(), header.getValue());
      }
      response.setContentType(rejection.contentType());
      response.getWriter().print(rejection.body());
    }
  }
}
