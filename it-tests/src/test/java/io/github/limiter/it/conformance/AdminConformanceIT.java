package io.github.limiter.it.conformance;

import static io.github.limiter.it.harness.RateLimitAssertions.assertAdmitted;
import static io.github.limiter.it.harness.RateLimitAssertions.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.harness.Http;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The admin API and the operator console on one node of the selected runtime ({@link
 * ConformanceRuntime#selected}), enabled with a bearer token: what an operator relies on, the same
 * on Payara Micro, WildFly and Open Liberty (limiter-servlet's admin servlet) and on Quarkus REST
 * (limiter-jaxrs's admin filter), at {@code limiter/admin/} below the application.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdminConformanceIT {

  private static final Duration START = Duration.ofMinutes(4);
  private static final String ROUTE = "conformance-route";
  private static final String ADMIN = "limiter/admin/";

  /** A fresh secret per run, so that a leak of it is visible in any output of the node. */
  private static final String TOKEN = "conformance-" + UUID.randomUUID();

  private static ServerNode node;

  @BeforeAll
  static void startOneNode() {
    node =
        ConformanceRuntime.selected()
            .start("admin", Map.of("limiter.admin.enabled", "true", "limiter.admin.token", TOKEN))
            .awaitReady(START);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  private static HttpResponse<String> admin(String method, String path, String body, String token) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(node.app(ADMIN + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return Http.send(request);
  }

  @Test
  @Order(1)
  void aCallWithoutTheTokenIsRefusedAndTheTokenNeverEchoed() {
    String guess = "guessed-" + UUID.randomUUID();
    for (String[] call :
        List.of(
            new String[] {"GET", "policies", null},
            new String[] {"PUT", "policies/" + ROUTE + "/limits", "{\"limits\":\"100/m\"}"})) {
      HttpResponse<String> none = admin(call[0], call[1], call[2], null);
      assertThat(none.statusCode()).as("%s %s without a token", call[0], call[1]).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate"))
          .hasValue("Bearer realm=\"limiter\"");
      HttpResponse<String> wrong = admin(call[0], call[1], call[2], guess);
      assertThat(wrong.statusCode())
          .as("%s %s with a wrong token", call[0], call[1])
          .isEqualTo(403);
      for (HttpResponse<String> refused : List.of(none, wrong)) {
        assertThat(refused.body()).doesNotContain(TOKEN).doesNotContain(guess);
        assertThat(refused.headers().map().toString()).doesNotContain(TOKEN).doesNotContain(guess);
      }
    }
  }

  @Test
  @Order(2)
  void theTokenListsThePoliciesUnchangedByTheRefusedCalls() {
    HttpResponse<String> policies = admin("GET", "policies", null, TOKEN);
    assertThat(policies.statusCode()).as(policies.body()).isEqualTo(200);
    assertThat(policies.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/json");
    assertThat(policies.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(policies.body())
        .contains(
            "{\"policy\":\""
                + ROUTE
                + "\",\"algorithm\":\"sliding-window-log\",\"version\":0,\"limits\":\"3/m\"")
        .contains("\"policy\":\"conformance-limited\"")
        .contains("\"routes\":[\"/api/route\"]")
        .doesNotContain(TOKEN);
  }

  @Test
  @Order(3)
  void aChangedLimitTakesEffectOnTheNextRequestsAndIsLoggedWithWhoChangedIt() {
    HttpResponse<String> change =
        admin("PUT", "policies/" + ROUTE + "/limits", "{\"limits\":\"1/m\"}", TOKEN);
    assertThat(change.statusCode()).as(change.body()).isEqualTo(200);
    assertThat(change.body()).contains("\"version\":1");

    // 3 a minute before the change; 1 a minute now
    assertAdmitted(Http.get(node.app("api/route"), "X-Client", "after-change"), ROUTE, 0);
    assertRejected(Http.get(node.app("api/route"), "X-Client", "after-change"), ROUTE, 60);

    assertThat(admin("GET", "policies", null, TOKEN).body())
        .contains(
            "{\"policy\":\""
                + ROUTE
                + "\",\"algorithm\":\"sliding-window-log\",\"version\":1,\"limits\":\"1/m\"");
    String line =
        "limiter admin: token changed the limits of policy '" + ROUTE + "' to 1/m, version 1 at ";
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!node.logText().contains(line) && System.nanoTime() - deadline < 0) {
      ServerNode.pause(200);
    }
    assertThat(node.logText()).as("the log of %s", node).contains(line).doesNotContain(TOKEN);
  }

  @Test
  @Order(4)
  void theConsolePageIsServedAndCallsTheApi() {
    URI page = node.app(ADMIN);
    HttpResponse<String> html = Http.get(page);
    assertThat(html.statusCode()).as("GET %s", page).isEqualTo(200);
    assertThat(html.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
    assertThat(html.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(csp -> assertThat(csp).startsWith("default-src 'none'"));
    assertThat(html.body()).contains("<title>Limiter console</title>", "src=\"console.js\"");
    HttpResponse<String> script = Http.get(page.resolve("console.js"));
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.body()).contains("\"/policies\"").doesNotContain(TOKEN);
  }
}
