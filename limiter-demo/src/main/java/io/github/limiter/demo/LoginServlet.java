package io.github.limiter.demo;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code POST /api/login?user=U&password=P}: a stand-in for a login, limited by the servlet filter
 * (policy {@code login}), which counts only failed logins (401). The password is {@code secret};
 * the user is 1 to 64 characters.
 */
@WebServlet("/api/login")
public class LoginServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;
  private static final int MAX_USER = 64;

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String user;
    try {
      user = InvalidParameter.text("user", request.getParameter("user"), MAX_USER);
    } catch (InvalidParameter invalid) {
      invalid.send(response);
      return;
    }
    response.setContentType("text/plain");
    response.setCharacterEncoding("UTF-8");
    if (!"secret".equals(request.getParameter("password"))) {
      response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      response.getWriter().println("wrong password");
      return;
    }
    response.getWriter().println("welcome, " + user);
  }
}
