package io.github.limiter.demo;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The demo's page, {@code WEB-INF/page.html}, at the context root. Its commands are written for
 * {@value #WRITTEN_FOR}; it serves them with the address it was asked at instead, so that they work
 * as pasted on any port ({@code -Ddemo.port}) or context root.
 */
@WebServlet({"", "/index.html"})
public class DemoPage extends HttpServlet {

  private static final long serialVersionUID = 1L;

  /** The address the page's commands are written for: the demo's default. */
  static final String WRITTEN_FOR = "http://127.0.0.1:8080";

  /** What a host or a context root may hold to be shown: never markup, quotes or shell syntax. */
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.:\\[\\]-]{1,255}");

  private static final Pattern CONTEXT = Pattern.compile("(/[A-Za-z0-9._~-]+)*");

  private String page;

  @Override
  public void init() throws ServletException {
    try (InputStream in = getServletContext().getResourceAsStream("/WEB-INF/page.html")) {
      if (in == null) {
        throw new ServletException("the demo page /WEB-INF/page.html is missing from the WAR");
      }
      page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ServletException("cannot read the demo page /WEB-INF/page.html", e);
    }
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/html");
    response.setCharacterEncoding("UTF-8");
    response
        .getWriter()
        .write(
            page.replace(
                WRITTEN_FOR,
                base(
                    request.getScheme(),
                    request.getServerName(),
                    request.getServerPort(),
                    request.getContextPath())));
  }

  /**
   * The address the page was asked at, as its commands need it: {@code http://host:port} and the
   * context root. A host or context root that could be more than an address (it comes from the
   * request's Host header) gives {@value #WRITTEN_FOR} instead.
   */
  static String base(String scheme, String host, int port, String contextPath) {
    if (!("http".equals(scheme) || "https".equals(scheme))
        || host == null
        || !HOST.matcher(host).matches()
        || contextPath == null
        || !CONTEXT.matcher(contextPath).matches()) {
      return WRITTEN_FOR;
    }
    String shownHost = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    boolean defaultPort = port == ("https".equals(scheme) ? 443 : 80);
    return scheme + "://" + shownHost + (defaultPort ? "" : ":" + port) + contextPath;
  }
}
