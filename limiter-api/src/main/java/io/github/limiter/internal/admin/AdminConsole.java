package io.github.limiter.internal.admin;

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
          "", new String[] {"console.html", "text/html;charset=UTF-8"},
          "console.css", new String[] {"console.css", "text/css;charset=UTF-8"},
          "console.js", new String[] {"console.js", "text/javascript;charset=UTF-8"});

  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
          + " img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private AdminConsole() {}

  /**
   * The console file that {@code rest} (the path below the admin path) names, or the redirect that
   * the page's relative links need at the admin path itself; null for every other route.
   *
   * @param uri the request's path, which the redirect adds a slash to
   */
  static AdminReply serve(String uri, String rest) throws IOException {
    if (rest.isEmpty()) {
      return new AdminReply(302, Map.of("Location", uri + "/"), null, new byte[0]);
    }
    String[] file = FILES.get(rest.substring(1));
    if (file == null) {
      return null;
    }
    try (InputStream in = AdminConsole.class.getResourceAsStream("console/" + file[0])) {
      if (in == null) {
        throw new IllegalStateException("the console's " + file[0] + " is missing from the jar");
      }
      return new AdminReply(
          200,
          Map.of(
              "Content-Security-Policy", CONTENT_SECURITY_POLICY,
              "X-Content-Type-Options", "nosniff",
              "Referrer-Policy", "no-referrer"),
          file[1],
          in.readAllBytes());
    }
  }
}
