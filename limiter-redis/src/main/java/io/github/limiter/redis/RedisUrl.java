package io.github.limiter.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import redis.clients.jedis.HostAndPort;

/**
 * A standalone server's URL, {@code redis://[[user]:password@]host[:port][/db]} or {@code
 * rediss://...} for TLS, taken apart.
 *
 * @param user null when the URL names none
 * @param password null when the URL has none
 */
record RedisUrl(HostAndPort node, int database, String user, String password, boolean tls) {

  /**
   * @throws IllegalArgumentException naming the URL and what is wrong with it
   */
  static RedisUrl parse(String url) {
    URI uri;
    try {
      uri = new URI(Objects.requireNonNull(url, "url").trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(expected(url) + ": " + e.getReason(), e);
    }
    String scheme = uri.getScheme();
    if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
      throw new IllegalArgumentException(expected(url) + ": the scheme must be redis or rediss");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new IllegalArgumentException(expected(url) + ": no host");
    }
    int port = uri.getPort() == -1 ? 6379 : uri.getPort();
    String path = uri.getPath() == null ? "" : uri.getPath();
    int db = 0;
    if (!path.isEmpty() && !path.equals("/")) {
      try {
        db = Integer.parseInt(path.substring(1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            expected(url) + ": the database must be a number, was '" + path.substring(1) + "'", e);
      }
      if (db < 0) {
        throw new IllegalArgumentException(expected(url) + ": the database must not be negative");
      }
    }
    String info = uri.getRawUserInfo();
    String user = null;
    String password = null;
    if (info != null) {
      int colon = info.indexOf(':');
      if (colon < 0) {
        password = decode(info);
      } else {
        user = colon == 0 ? null : decode(info.substring(0, colon));
        password = decode(info.substring(colon + 1));
      }
    }
    return new RedisUrl(
        new HostAndPort(uri.getHost(), port), db, user, password, "rediss".equals(scheme));
  }

  private static String expected(String url) {
    return "expected redis://[[user]:password@]host[:port][/db] or rediss://..., was '" + url + "'";
  }

  private static String decode(String text) {
    return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
