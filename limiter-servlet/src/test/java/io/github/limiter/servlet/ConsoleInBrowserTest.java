package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.AdminSettings;
import io.github.limiter.internal.live.LiveLimits;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator console rendered by a real headless Chromium against the admin API served by Jetty:
 * the test reads the DOM as the browser built it from the API's JSON. The token reaches the page as
 * an operator's would, through the tab's sessionStorage: a test-only page of the same origin puts
 * it there and opens the console. Without a browser it is skipped, except under {@code CI=true}.
 */
class ConsoleInBrowserTest {

  TestServer server;

  @BeforeEach
  void start() throws Exception {
    String browser = chromiumBinary();
    assertThat(browser).isNotBlank();
    Consumer<ServletContext> filter =
        TestServer.filter(
            Props.of(
                "limiter.policy.api.algorithm", "fixed-window",
                "limiter.policy.api.limits", "5/1h",
                "limiter.policy.api.key", "header:X-Api-Key",
                "limiter.policy.login.algorithm", "token-bucket",
                "limiter.policy.login.limits", "3/1m",
                "limiter.policy.login.key", "header:X-Api-Key",
                "limiter.route.api.pattern", "/api/*",
                "limiter.route.api.policies", "api",
                "limiter.route.login.pattern", "/login/*",
                "limiter.route.login.policies", "login",
                "limiter.top-keys.enabled", "true"));
    AdminSettings settings =
        new AdminSettings(
            true, "/limiter/admin", Optional.empty(), Optional.of(AdminApiTest.TOKEN));
    server =
        TestServer.start(
            TestServer.context(
                filter.andThen(
                    ctx -> {
                      ctx.addServlet("limiter-admin", new AdminServlet(settings, LiveLimits::open))
                          .addMapping("/limiter/admin/*");
                      ctx.addServlet("sign-in", new SignIn()).addMapping("/sign-in");
                    })));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  /** What the operator does on the console's form: the token into the tab's sessionStorage. */
  static final class SignIn extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.setContentType("text/html");
      response
          .getWriter()
          .write(
              "<!DOCTYPE html><script>sessionStorage.setItem('limiter-admin-token', '"
                  + AdminApiTest.TOKEN
                  + "'); location.replace('"
                  + request.getContextPath()
                  + "/limiter/admin/');</script>");
    }
  }

  int call(String method, String path, String body, String key) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.uri(path))
            .timeout(Duration.ofSeconds(20))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("X-Api-Key", key);
    } else {
      request.header("Authorization", "Bearer " + AdminApiTest.TOKEN);
    }
    return Http.CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  @Test
  void theConsoleShowsEachPolicyWithItsLimitsTopKeysOverridesAndTrial() throws Exception {
    for (int i = 0; i < 8; i++) {
      call("GET", "/api/x", null, "abuser");
    }
    call("GET", "/api/x", null, "customer");
    for (int i = 0; i < 4; i++) {
      call("GET", "/login/x", null, "guesser");
    }
    assertThat(
            call(
                "PUT",
                "/limiter/admin/policies/api/overrides/h:abuser",
                "{\"kind\":\"block\"}",
                null))
        .isEqualTo(200);
    assertThat(
            call(
                "PUT",
                "/limiter/admin/policies/login/trial",
                "{\"limits\":\"2/1m\",\"period\":\"10m\"}",
                null))
        .isEqualTo(200);
    for (int i = 0; i < 3; i++) {
      call("GET", "/login/x", null, "walker");
    }

    HttpResponse<String> page =
        Http.CLIENT.send(
            HttpRequest.newBuilder(server.uri("/limiter/admin/")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).as("the page holds no data and needs no token").isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
        .startsWith("default-src 'none'");
    assertThat(page.body()).doesNotContain(AdminApiTest.TOKEN).doesNotContain("http");

    Path png = Path.of("target", "limiter-console.png").toAbsolutePath();
    Files.deleteIfExists(png);
    chromium("--screenshot=" + png, "--window-size=1400,1000");
    assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G').hasSizeGreaterThan(20_000);
    String dom = chromium("--dump-dom");

    assertThat(dom).contains("data-loaded=\"true\"").contains("2 policies");
    String api = section(dom, "api");
    assertThat(api)
        .contains("<span class=\"limits\">5/h</span>")
        .contains("fixed-window · version 0")
        .containsPattern(
            "<tr data-key=\"h:abuser\"><td class=\"key\">h:abuser</td><td class=\"num\">8</td>")
        .contains("<td class=\"key\">h:customer</td>")
        .contains("Most rejections (3 in all)")
        .contains("<table class=\"overrides\"><tr data-key=\"h:abuser\">")
        .contains("<td>block</td><td>until removed</td>");
    assertThat(api.indexOf("h:abuser")).isLessThan(api.indexOf("h:customer"));
    String login = section(dom, "login");
    assertThat(login)
        .contains("<span class=\"limits\">3/m</span>")
        .contains("data-state=\"running\"")
        .contains("would reject 1 of 3 requests")
        .contains("<td class=\"key\">h:guesser</td>");
  }

  private static String section(String dom, String policy) {
    int start = dom.indexOf("<section class=\"policy\" data-policy=\"" + policy + "\"");
    assertThat(start).as("the section of policy " + policy + " in " + dom).isNotNegative();
    return dom.substring(start, dom.indexOf("</section>", start));
  }

  private String chromium(String... args) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("chromium-profile");
    List<String> command =
        new ArrayList<>(
            List.of(
                chromiumBinary(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--virtual-time-budget=10000",
                "--user-data-dir=" + profile));
    command.addAll(List.of(args));
    command.add(server.uri("/sign-in").toString());
    Path stdout = Files.createTempFile("chromium", ".out");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("chromium did not finish in 120 s: " + command);
    }
    assertThat(process.exitValue()).as(String.join(" ", command)).isZero();
    return Files.readString(stdout, StandardCharsets.UTF_8);
  }

  /** $CHROMIUM, else chromium (or Chrome) on the PATH; none: skipped, or failed under CI=true. */
  static String chromiumBinary() {
    String configured = System.getenv("CHROMIUM");
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    for (String name :
        List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
      for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path candidate = Path.of(entry.isEmpty() ? "." : entry, name);
        if (Files.isExecutable(candidate)) {
          return candidate.toString();
        }
      }
    }
    String missing =
        "this test renders the console in a real headless browser and found none (no CHROMIUM,"
            + " and no chromium or google-chrome on the PATH); install Chromium or set CHROMIUM";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new AssertionError("CI=true, so the browser test may not be skipped: " + missing);
    }
    return Assumptions.abort(missing);
  }
}
