package io.github.limiter.it.app.hello;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

/** The smallest application: proves the harness deploys and serves, and shows WEB-INF/lib. */
@WebServlet("/hello")
public class HelloServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain");
    response.setCharacterEncoding("UTF-8");
    if (request.getParameter("libs") != null) {
      Set<String> libs =
          new TreeSet<>(request.getServletContext().getResourcePaths("/WEB-INF/lib/"));
      response.getWriter().print(String.join("\n", libs));
    } else {
      response.getWriter().print("hello from " + request.getServletContext().getServerInfo());
    }
  }
}
