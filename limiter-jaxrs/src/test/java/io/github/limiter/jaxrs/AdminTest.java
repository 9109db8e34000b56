package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.admin.AdminApi;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The admin API and console through Jakarta REST (Jersey on Jetty), where no servlet serves them:
 * off unless enabled, the servlet's guard and audit log, and a change that the routes obey at once.
 */
class AdminTest {

  private static final String TOKEN = "s3cret-token-of-the-ops-team";
  private static final String ADMIN = "/limiter/admin";

  private static final Map<String, String> ROUTES =
      TestApp.props(
          "limiter.policy.api.algorithm", "fixed-window",
          "limiter.policy.api.limits", "5/1h",
          "limiter.policy.api.key", "header:X-Client",
          "limiter.route.api.pattern", "/items",
          "limiter.route.api.policies", "api");

  private static Map<String, String> enabled() {
    Map<String, String> props = new LinkedHashMap<>(ROUTES);
    props.put("limiter.admin.enabled", "true");
    props.put("limiter.admin.token", TOKEN);
    return props;
  }

  @Test
  void offUnlessEnabled() throws Exception {
    try (TestApp app = TestApp.jersey(TestApp.resources(ROUTES))) {
      assertThat(app.get(ADMIN + "/policies", "Authorization", "Bearer " + TOKEN).statusCode())
          .isEqualTo(404);
      assertThat(app.get(ADMIN + "/").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void theTokenGuardsEveryCallAndIsNeverEchoed() throws Exception {
    try (TestApp app = TestApp.jersey(TestApp.resources(enabled()))) {
      HttpResponse<String> none = app.get(ADMIN + "/policies");
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate"))
          .hasValue("Bearer realm=\"limiter\"");
      assertThat(none.headers().firstValue("Cache-Control")).hasValue("no-store");
      HttpResponse<String> wrong =
          app.sendBody(
              "PUT",
              ADMIN + "/policies/api/limits",
              "{\"limits\":\"1/h\"}",
              "Authorization",
              "Bearer guessed-token-1234567");
      assertThat(wrong.statusCode()).isEqualTo(403);
      assertThat(wrong.body()).doesNotContain("guessed").doesNotContain(TOKEN);
      assertThat(app.get("/items", "X-Client", "k").headers().firstValue("RateLimit"))
          .as("the refused change changed nothing")
          .hasValueSatisfying(v -> assertThat(v).contains("r=4"));
    }
  }

  @Test
  void aChangedLimitAppliesToTheNextRequestAndIsLoggedWithWhoMadeIt() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    Logger log = Logger.getLogger(AdminApi.class.getName());
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            lines.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    log.addHandler(handler);
    try (TestApp app = TestApp.jersey(TestApp.resources(enabled()))) {
      HttpResponse<String> policies =
          app.get(ADMIN + "/policies", "Authorization", "Bearer " + TOKEN);
      assertThat(policies.statusCode()).isEqualTo(200);
      assertThat(policies.headers().firstValue("Content-Type").orElseThrow())
          .startsWith("application/json");
      assertThat(policies.body())
          .startsWith("{\"policies\":[{\"policy\":\"api\",\"algorithm\":\"fixed-window\"")
          .contains("\"limits\":\"5/h\"", "\"routes\":[\"/items\"]");

      assertThat(app.get("/items", "X-Client", "k").statusCode()).isEqualTo(200);
      HttpResponse<String> change =
          app.sendBody(
              "PUT",
              ADMIN + "/policies/api/limits",
              "{\"limits\":\"2/h\"}",
              "Authorization",
              "Bearer " + TOKEN);
      assertThat(change.statusCode()).as(change.body()).isEqualTo(200);
      assertThat(change.body()).contains("\"version\":1");

      assertThat(app.get("/items", "X-Client", "k").statusCode()).isEqualTo(200);
      assertThat(app.get("/items", "X-Client", "k").statusCode()).isEqualTo(429);
    } finally {
      log.removeHandler(handler);
    }
    assertThat(lines)
        .singleElement()
        .asString()
        .startsWith(
            "limiter admin: token changed the limits of policy 'api' to 2/h, version 1 at ");
  }

  @Test
  void theConsoleIsServedAtTheAdminPath() throws Exception {
    try (TestApp app = TestApp.jersey(TestApp.resources(enabled()))) {
      HttpResponse<String> bare = app.get(ADMIN);
      assertThat(bare.statusCode()).isEqualTo(302);
      // Jakarta REST makes the Location absolute
      assertThat(bare.headers().firstValue("Location").orElseThrow())
          .isEqualTo(app.uri(ADMIN + "/").toString());
      HttpResponse<String> page = app.get(ADMIN + "/");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
      assertThat(page.headers().firstValue("Content-Security-Policy"))
          .hasValueSatisfying(csp -> assertThat(csp).contains("default-src 'none'"));
      assertThat(page.body()).contains("<title>Limiter console</title>", "console.js");
      HttpResponse<String> script = app.get(ADMIN + "/console.js");
      assertThat(script.statusCode()).isEqualTo(200);
      assertThat(script.body()).contains("\"/policies\"");
    }
  }

  /** One application, one admin API: limiter-servlet's, when it serves one beside. */
  @Test
  void stepsAsideWhereLimiterServletServesTheAdminApi() throws Exception {
    try (TestApp app =
        TestApp.jersey(
            TestApp.resources(enabled()), null, Map.of(AdminApi.ATTRIBUTE, new Object()))) {
      assertThat(app.get(ADMIN + "/policies", "Authorization", "Bearer " + TOKEN).statusCode())
          .isEqualTo(404);
      assertThat(app.get("/items", "X-Client", "k").statusCode()).isEqualTo(200);
    }
  }
}
