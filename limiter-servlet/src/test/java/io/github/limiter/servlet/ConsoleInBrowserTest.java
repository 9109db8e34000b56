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

  /**
   * The operator's clicks, driven through Chromium's DevTools protocol: blocks a key on the
   * console's form, then starts and applies a trial, each answered by the admin API.
   */
  @Test
  void anOperatorBlocksAKeyAndAppliesATrialFromTheConsole() throws Exception {
    call("GET", "/api/x", null, "abuser");
    Path profile = Files.createTempDirectory("chromium-profile");
    Process browser =
        new ProcessBuilder(
                chromiumBinary(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-port=0",
                "--user-data-dir=" + profile,
                server.uri("/sign-in").toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      String port = null;
      var err =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(browser.getErrorStream(), StandardCharsets.UTF_8));
      {
        for (String line = err.readLine(); line != null; line = err.readLine()) {
          var m =
              java.util.regex.Pattern.compile("DevTools listening on ws://[^:]+:(\\d+)/")
                  .matcher(line);
          if (m.find()) {
            port = m.group(1);
            break;
          }
        }
        assertThat(port).as("chromium's DevTools port").isNotNull();
        new Thread(() -> drain(err)).start();
        String targets =
            Http.CLIENT
                .send(
                    HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + port + "/json/list"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body();
        var ws =
            java.util.regex.Pattern.compile(
                    "\"webSocketDebuggerUrl\": \"(ws://[^\"]+/page/[^\"]+)\"")
                .matcher(targets);
        assertThat(ws.find()).as(targets).isTrue();
        try (Devtools page = new Devtools(ws.group(1))) {
          String title = null;
          for (int i = 0; i < 50 && title == null; i++) {
            // null while the sign-in page turns into the console: its script context goes
            title =
                page.eval(
                    until(
                        "document.body && document.body.getAttribute('data-loaded') === 'true'",
                        "document.title"));
          }
          assertThat(title).isEqualTo("Limiter console");
          page.eval(
              "(() => { const s = document.querySelector('section[data-policy=api]');"
                  + " const f = [...s.querySelectorAll('form')].find(f => f.textContent.includes('Override a key'));"
                  + " f.elements.key.value = 'h:abuser'; f.elements.kind.value = 'block';"
                  + " f.requestSubmit(); return 'sent'; })()");
          assertThat(
                  page.eval(
                      until(
                          "document.querySelector('section[data-policy=api] table.overrides tr[data-key=\"h:abuser\"]') !== null",
                          "document.getElementById('status').textContent")))
              .isEqualTo("Overriding h:abuser: done.");
          assertThat(call("GET", "/api/x", null, "abuser")).as("blocked").isEqualTo(429);

          page.eval(
              "(() => { const s = document.querySelector('section[data-policy=login]');"
                  + " const f = [...s.querySelectorAll('form')].find(f => f.textContent.includes('Try in shadow'));"
                  + " f.elements.limits.value = '1/1m'; f.elements.period.value = '5m';"
                  + " f.requestSubmit(); return 'sent'; })()");
          page.eval(
              until(
                  "document.querySelector('section[data-policy=login] .trial[data-state=running]') !== null",
                  "1"));
          page.eval(
              "(() => { [...document.querySelectorAll('section[data-policy=login] .trial button')]"
                  + ".find(b => b.textContent === 'Apply').click(); return 'sent'; })()");
          assertThat(
                  page.eval(
                      until(
                          "document.querySelector('section[data-policy=login] .trial[data-state=applied]') !== null",
                          "document.querySelector('section[data-policy=login] .limits').textContent")))
              .isEqualTo("1/m");
        }
      }
    } finally {
      browser.destroy();
      if (!browser.waitFor(30, TimeUnit.SECONDS)) {
        browser.destroyForcibly();
      }
    }
    assertThat(call("GET", "/login/x", null, "walker")).isEqualTo(200);
    assertThat(call("GET", "/login/x", null, "walker")).as("the applied 1/m").isEqualTo(429);
  }

  /**
   * A script that resolves with {@code value} once {@code condition} holds (polled in the page).
   */
  private static String until(String condition, String value) {
    return "new Promise(done => { const t = () => ("
        + condition
        + ") ? done("
        + value
        + ") : setTimeout(t, 20); t(); })";
  }

  private static void drain(java.io.BufferedReader err) {
    try {
      while (err.readLine() != null) {
        // Chromium's log: not needed
      }
    } catch (IOException e) {
      // the browser ended
    }
  }

  /** One page's DevTools connection: evaluates scripts and answers their values as strings. */
  private static final class Devtools implements java.net.http.WebSocket.Listener, AutoCloseable {
    private final java.net.http.WebSocket socket;
    private final StringBuilder part = new StringBuilder();
    private final java.util.concurrent.BlockingQueue<String> replies =
        new java.util.concurrent.LinkedBlockingQueue<>();
    private int id;

    Devtools(String url) throws Exception {
      socket =
          Http.CLIENT
              .newWebSocketBuilder()
              .buildAsync(java.net.URI.create(url), this)
              .get(30, TimeUnit.SECONDS);
    }

    @Override
    public java.util.concurrent.CompletionStage<?> onText(
        java.net.http.WebSocket webSocket, CharSequence data, boolean last) {
      part.append(data);
      if (last) {
        replies.add(part.toString());
        part.setLength(0);
      }
      webSocket.request(1);
      return null;
    }

    String eval(String expression) throws Exception {
      int call = ++id;
      socket
          .sendText(
              "{\"id\":"
                  + call
                  + ",\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":"
                  + Json.write(expression)
                  + ",\"awaitPromise\":true,\"returnByValue\":true}}",
              true)
          .get(30, TimeUnit.SECONDS);
      while (true) {
        String reply = replies.poll(30, TimeUnit.SECONDS);
        assertThat(reply).as("chromium's answer to " + expression).isNotNull();
        if (reply.startsWith("{\"id\":" + call + ",")) {
          if (reply.contains("Execution context was destroyed")
              || reply.contains("Cannot find context")
              || reply.contains("Inspected target navigated")) {
            return null;
          }
          assertThat(reply).as(expression).doesNotContain("exceptionDetails");
          var value =
              java.util.regex.Pattern.compile("\"value\":(\"((?:[^\"\\\\]|\\\\.)*)\"|[^,}]+)")
                  .matcher(reply);
          assertThat(value.find()).as(reply).isTrue();
          return value.group(2) != null ? value.group(2) : value.group(1);
        }
      }
    }

    @Override
    public void close() {
      socket.abort();
    }
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
