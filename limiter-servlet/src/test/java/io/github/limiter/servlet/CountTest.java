package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code count=status:...} over real HTTP: a login endpoint that counts only failed logins. Three
 * failures a minute per user; every request is charged when admitted and refunded when it ends with
 * a status that does not count.
 */
class CountTest {

  private static Map<String, String> login(String count) {
    return Props.of(
        "limiter.policy.login.algorithm", "fixed-window",
        "limiter.policy.login.limits", "3/1m",
        "limiter.policy.login.key", "header:X-User",
        "limiter.policy.login.count", count,
        "limiter.route.login.pattern", "/*",
        "limiter.route.login.policies", "login");
  }

  private static int status(TestServer server, String user, String answer) throws Exception {
    return answer == null
        ? Http.get(server.uri("/"), "X-User", user).statusCode()
        : Http.get(server.uri("/"), "X-User", user, "X-Answer", answer).statusCode();
  }

  @Test
  void successfulLoginsNeverLockAnyoneOutWhileFailedOnesDo() throws Exception {
    try (TestServer server = TestServer.withFilter(login("status:401,403"))) {
      // twenty successful logins: none counts
      for (int i = 0; i < 20; i++) {
        assertThat(status(server, "alice", null)).as("login %d", i).isEqualTo(200);
      }
      // three failures count; the fourth attempt is refused, even with the right password
      assertThat(status(server, "mallory", "401")).isEqualTo(401);
      assertThat(status(server, "mallory", "403")).isEqualTo(403);
      assertThat(status(server, "mallory", "401")).isEqualTo(401);
      assertThat(status(server, "mallory", null)).isEqualTo(429);
      // other statuses do not count: a 404 or a 500 by an exception leaves the quota alone
      assertThat(status(server, "bob", "404")).isEqualTo(404);
      assertThat(status(server, "bob", "throw")).isEqualTo(500);
      for (int i = 0; i < 3; i++) {
        assertThat(status(server, "bob", "401")).isEqualTo(401);
      }
      assertThat(status(server, "bob", "401")).isEqualTo(429);
    }
  }

  @Test
  void anAsyncResponseIsSettledWhenItCompletes() throws Exception {
    try (TestServer server = TestServer.withFilter(login("status:401"))) {
      for (int i = 0; i < 10; i++) {
        assertThat(status(server, "carol", "async:200")).isEqualTo(200);
      }
      for (int i = 0; i < 3; i++) {
        assertThat(status(server, "dave", "async:401")).isEqualTo(401);
      }
      assertThat(status(server, "dave", "async:200")).isEqualTo(429);
    }
  }

  @Test
  void byDefaultEveryRequestCounts() throws Exception {
    try (TestServer server = TestServer.withFilter(login("all"))) {
      for (int i = 0; i < 3; i++) {
        assertThat(status(server, "erin", null)).isEqualTo(200);
      }
      assertThat(status(server, "erin", null)).isEqualTo(429);
    }
  }
}
