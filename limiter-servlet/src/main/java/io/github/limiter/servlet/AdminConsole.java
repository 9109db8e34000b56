package io.github.limiter.servlet;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The operator console: one page, its style sheet and its script, served at the admin path (GET
 * {@code <limiter.admin.path>/}). The page holds no data and needs no credential: its script asks
 * the operator for the bearer token, keeps it in the tab's {@code sessionStorage}, and calls the
 * JSON routes with it, which check it as for any client. Nothing is fetched from elsewhere, and the
 * Content-Security-Policy says so.
 */
final class AdminConsole {

  /** The console's files by the name they are served at; the page is "". */
  private static final Map<String, String[]> FILES =
      Map.of(
          "", new String[] {"console.html", "text/html"},
          "console.css", new String[] {"console.css", "text/css"},
          "console.js", new String[] {"console.js", "text/javascript"});

  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
          + " img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private AdminConsole() {}

  /** Serves a console file if {@code request} asks for one; false for every other route. */
  static boolean serve(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String rest = request.getPathInfo() == null ? "" : request.getPathInfo();
    if (rest.isEmpty()) {
      // the page's relative links need the trailing slash
      response.sendRedirect(request.getRequestURI() + "/");
      return true;
    }
    String[] file = FILES.get(rest.substring(1));
    if (file == null) {
      return false;
    }
    try (InputStream in = AdminConsole.class.getResourceAsStream("console/" + file[0])) {
      if (in == null) {
        throw new IllegalStateException("the console's " + file[0] + " is missing from the jar");
      }
      byte[] bytes = in.readAllBytes();
      response.setStatus(200);
      response.setContentType(file[1]);
      response.setCharacterEncoding("UTF-8");
      response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
      response.setHeader("X-Content-Type-Options", "nosniff");
      response.setHeader("Referrer-Policy", "no-referrer");
      response.setContentLength(bytes.length);
      response.getOutputStream().write(bytes);
    }
    return true;
  }
}
