package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Garbage on the wire never becomes a 500: malformed forwarding headers and keys are ignored and
 * the fallback applies. Raw sockets, so that anything can be sent.
 */
class BadInputTest {

  private static final Map<String, String> BASE =
      Props.of(
          "limiter.policy.byip.algorithm", "token-bucket",
          "limiter.policy.byip.limits", "100000/s",
          "limiter.policy.bykey.algorithm", "token-bucket",
          "limiter.policy.bykey.limits", "100000/s",
          "limiter.policy.bykey.key", "header:X-Api-Key",
          "limiter.policy.bytenant.algorithm", "token-bucket",
          "limiter.policy.bytenant.limits", "100000/s",
          "limiter.policy.bytenant.key", "resolver:tenant",
          "limiter.route.all.pattern", "/*",
          "limiter.route.all.policies", "byip,bykey,bytenant",
          "limiter.http.trusted-proxies", "127.0.0.1/32, 10.0.0.0/8, fd00::/8");

  private static TestServer xff;
  private static TestServer forwarded;

  @BeforeAll
  static void start() throws Exception {
    xff = TestServer.withFilter(BASE);
    forwarded =
        TestServer.withFilter(Props.with(BASE, "limiter.http.forwarded-header", "forwarded"));
  }

  @AfterAll
  static void stop() throws Exception {
    xff.close();
    forwarded.close();
  }

  private static final String TEN_KB = "a".repeat(10 * 1024);

  private static List<String> garbageAddresses() {
    List<String> values =
        new ArrayList<>(
            List.of(
                "",
                " ",
                ",",
                ",,,,",
                "unknown",
                "_hidden",
                "localhost",
                "example.com",
                "1.2.3.4.5",
                "999.1.1.1",
                "01.2.3.4",
                "::::",
                "[::1",
                "::1]",
                "[::1]:99999",
                "fe80::1%",
                "fe80::1%eth0",
                "fe80::1%25eth0",
                "fe80::1%$(id)",
                "[fe80::1%eth0]:80",
                "1.2.3.4:",
                "1.2.3.4:80:80",
                "2001:db8::1]:80",
                "\"quoted\"",
                "for=1.2.3.4",
                "10.0.0.1, 10.0.0.2, 10.0.0.3",
                "fd00::1, 10.0.0.1",
                "\u00ff\u00fe\u00fd",
                "1.2.3.4\t5.6.7.8",
                "0x7f000001",
                "2130706433",
                "::ffff:999.0.0.1",
                "1:2:3:4:5:6:7:8:9",
                TEN_KB,
                "1.1.1.1,".repeat(1200)));
    return values;
  }

  private static List<String> garbageForwarded() {
    List<String> values =
        new ArrayList<>(
            List.of(
                "for=",
                "for=\"",
                "for=\"[::1",
                "for=\"[::1]:80",
                "for=unknown",
                "for=_hidden",
                "for=\"_x\"",
                ";;;;",
                "=",
                "for==",
                "for=1.2.3.4;for=5.6.7.8",
                "for=\"\\\"",
                "for=[::1]",
                "for=\"[fe80::1%25eth0]\"",
                "by=1.2.3.4",
                "for=10.0.0.1, for=10.0.0.2",
                "for=1.2.3.4 garbage",
                "\"\"\"",
                "for=\"" + TEN_KB + "\"",
                "for=1.1.1.1, ".repeat(700)));
    values.addAll(garbageAddresses());
    return values;
  }

  private static void assertNeverFails(TestServer server, String header, List<String> values)
      throws Exception {
    for (String value : values) {
      Http.RawResponse response =
          Http.raw(
              server.port(), "GET /app/x HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header + ": " + value);
      String shown = value.length() > 40 ? value.substring(0, 40) + "..." : value;
      assertThat(response.status()).as(header + ": " + shown).isEqualTo(200);
      assertThat(response.text()).as(header + ": " + shown).contains("RateLimit-Policy:");
    }
  }

  @Test
  void garbageForwardedForIsIgnored() throws Exception {
    assertNeverFails(xff, "X-Forwarded-For", garbageAddresses());
  }

  @Test
  void garbageForwardedIsIgnored() throws Exception {
    assertNeverFails(forwarded, "Forwarded", garbageForwarded());
  }

  @Test
  void garbageKeysAreIgnored() throws Exception {
    assertNeverFails(xff, "X-Api-Key", garbageAddresses());
    assertNeverFails(xff, "X-Tenant", garbageAddresses());
    // Control characters: the container may refuse them itself (400); either way no 500.
    for (String value : new String[] {"\u0001\u0002", "key\u007fdel", "\u0000"}) {
      int status =
          Http.raw(xff.port(), "GET /app/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: " + value)
              .status();
      assertThat(status).isIn(200, 400);
    }
  }

  /**
   * A header beyond the container's limit is the container's 431, never a 500, and the server goes
   * on.
   */
  @Test
  void oversizedHeaderIsAClientError() throws Exception {
    Http.RawResponse response =
        Http.raw(
            xff.port(),
            "GET /app/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: " + "b".repeat(20 * 1024));
    assertThat(response.status()).isBetween(400, 499);
    assertThat(Http.raw(xff.port(), "GET /app/x HTTP/1.1\r\nHost: 127.0.0.1").status())
        .isEqualTo(200);
  }

  /** Malformed request lines and odd paths: whatever the container answers, it is not a 500. */
  @Test
  void oddRequestsAreNeverServerErrors() throws Exception {
    for (String head :
        new String[] {
          "GET /app/%2e%2e/x HTTP/1.1\r\nHost: 127.0.0.1",
          "GET /app/;x=y/z HTTP/1.1\r\nHost: 127.0.0.1",
          "GET /app//x//y HTTP/1.1\r\nHost: 127.0.0.1",
          "get /app/x HTTP/1.1\r\nHost: 127.0.0.1",
          "BREW /app/x HTTP/1.1\r\nHost: 127.0.0.1",
          "GET /app/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 1.2.3.4\r\nX-Forwarded-For: ::1%zz",
          "GET /app/x HTTP/1.1\r\nHost: 127.0.0.1\r\nForwarded: for=\"[::1]\"\r\nForwarded: garbage"
        }) {
      int status = Http.raw(xff.port(), head).status();
      assertThat(status).as(head).isLessThan(500);
    }
  }
}
