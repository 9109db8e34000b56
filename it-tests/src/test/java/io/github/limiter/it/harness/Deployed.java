package io.github.limiter.it.harness;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;

/** Checks that Arquillian's deployment really happened, and gives its loopback address. */
public final class Deployed {

  private Deployed() {}

  /**
   * The application's base URI, with the host as {@code 127.0.0.1} and a trailing slash.
   *
   * <p>A failed deployment on Payara Micro does not fail Arquillian's deploy: the server boots
   * without the application, and the URL loses its context root. That is caught here, and the
   * server log, where the real cause is, is printed and put in the failure.
   */
  public static URI base(URL url) {
    if (url == null || url.getPath().isEmpty() || url.getPath().equals("/")) {
      ServerLog.print("deployment failed", 400);
      throw new AssertionError(
          "the deployment failed: its URL has no context root ("
              + url
              + "); the server log above says why:\n"
              + ServerLog.tail(60));
    }
    try {
      String path = url.getPath().endsWith("/") ? url.getPath() : url.getPath() + "/";
      return new URI("http", null, "127.0.0.1", url.getPort(), path, null, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("deployment URL: cannot use '" + url + "'", e);
    }
  }
}
