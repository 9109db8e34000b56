package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.limiter.internal.config.AdminSettings;
import io.github.limiter.tck.browser.Chromium;
import io.github.limiter.tck.browser.DevToolsPage;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator console rendered by a real headless Chromium against the admin API served by Jetty:
 * the test reads the DOM as the browser built it from the API's JSON. The token reaches the page as
 * an operator's would, through the tab's sessionStorage: a test-only page of the same origin puts
 * it there and opens the console. Without a browser it is skipped, except under {@code CI=true}.
 */
class ConsoleInBrowserTest {

  private static final String RENDERS = "renders the operator console";
  private static final String DRIVES = "drives the operator console";

  TestServer server;

  @BeforeEach
  void start() throws Exception {
    assertThat(Chromium.binary(RENDERS)).isNotBlank();
    Consumer<ServletContext> filter =
        TestServer.filter(
            Props.of(
                "limiter.policy.api.algorithm", "fixed-window",
                "limiter.policy.api.limits", "5/1h",
                "limiter.policy.api.key", "header:X-Api-Key",
                "limiter.policy.login.algorithm", "token-bucket",
                "limiter.policy.login.limits", "3/1m",
                "limiter.policy.login.key", "header:X-Api-Key",
                "limiter.policy.export.algorithm", "concurrency",
                "limiter.policy.export.limits", "2",
                "limiter.policy.export.retry-after", "2s",
                "limiter.route.api.pattern", "/api/*",
                "limiter.route.api.policies", "api",
                "limiter.route.login.pattern", "/login/*",
                "limiter.route.login.policies", "login",
                "limiter.route.export.pattern", "/export/*",
                "limiter.route.export.methods", "GET",
                "limiter.route.export.policies", "export",
                "limiter.top-keys.enabled", "true"));
    AdminSettings settings =
        new AdminSettings(
            true, "/limiter/admin", Optional.empty(), Optional.of(AdminApiTest.TOKEN));
    server =
        TestServer.start(
            TestServer.context(
                filter.andThen(
                    ctx -> {
                      ctx.addServlet(
                              "limiter-admin",
                              new AdminServlet(settings, () -> ContextRuntime.find(ctx)))
                          .addMapping("/limiter/admin/*");
                      ctx.addServlet("sign-in", new SignIn()).addMapping("/sign-in");
                    })));
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) { // null when no browser was found and the test was skipped
      server.close();
    }
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
    call("GET", "/export/x", null, "anyone");

    HttpResponse<String> page =
        Http.CLIENT.send(
            HttpRequest.newBuilder(server.uri("/limiter/admin/")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).as("the page holds no data and needs no token").isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
        .startsWith("default-src 'none'");
    assertThat(page.body()).doesNotContain(AdminApiTest.TOKEN).doesNotContain("http");
    assertThat(page.body())
        .as("a token typed before the script runs must not be submitted as a page load")
        .contains("<button type=\"submit\" id=\"use-token\" disabled>");

    Path png = Path.of("target", "limiter-console.png").toAbsolutePath();
    Files.deleteIfExists(png);
    chromium("--screenshot=" + png, "--window-size=1400,1000");
    assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G').hasSizeGreaterThan(20_000);
    String dom = chromium("--dump-dom");

    assertThat(dom).contains("data-loaded=\"true\"").contains("3 policies");
    String api = section(dom, "api");
    assertThat(api)
        .contains("<span class=\"limits\">5/h</span>")
        .contains("fixed-window · version 0")
        .contains("<dd class=\"routes\"><code>/api/*</code></dd>")
        .contains(
            "<dd class=\"key-source\">per value of header X-Api-Key;"
                + " without one, per client address</dd>")
        .contains("5 in each hour window of its own, counted from the window's start")
        .contains("<option value=\"block\">block</option><option value=\"exempt\">exempt</option>")
        .contains("Every count is exact.")
        .containsPattern(
            "<tr data-key=\"h:abuser\"><td class=\"key\">h:abuser</td><td class=\"num\">8</td>")
        .contains("<td class=\"key\">h:customer</td>")
        .contains("Most rejections (3 in all)")
        .contains("<table class=\"overrides\"><tr data-key=\"h:abuser\">")
        .contains("<td>block</td><td>until removed</td>");
    assertThat(api.indexOf("h:abuser")).isLessThan(api.indexOf("h:customer"));
    // abuser's 8 requests: 5 admitted, 3 rejected; customer's 1 admitted
    assertDrawn(api, "admitted", 6);
    assertDrawn(api, "rejected", 3);
    String login = section(dom, "login");
    assertThat(login)
        .contains("<span class=\"limits\">3/m</span>")
        .contains("data-state=\"running\"")
        .contains("would reject 1 of 3 requests")
        .contains("<td class=\"key\">h:guesser</td>");
    // guesser's 4 requests: 3 admitted, 1 rejected; walker's 3 admitted
    assertDrawn(login, "admitted", 6);
    assertDrawn(login, "rejected", 1);
    String export = section(dom, "export");
    assertThat(export)
        .contains("<span class=\"limits\">2 in flight</span>")
        .doesNotContain("2/2s")
        .contains("<dd class=\"routes\"><code>GET /export/*</code></dd>")
        .contains("<dd class=\"key-source\">per client address</dd>")
        .contains("2 in flight at once; a rejection says retry after 2 seconds");
    assertDrawn(export, "admitted", 1);
    assertDrawn(export, "rejected", 0);
  }

  /**
   * Reads the series {@code kind} back from the chart as drawn: each point of its polyline, one per
   * second over five minutes, is turned back into requests by the chart's scale; they must add up
   * to what the test sent, all in the last few seconds.
   */
  private static void assertDrawn(String section, String kind, long sent) {
    Matcher chart =
        Pattern.compile(
                "<svg class=\"traffic\"[^>]* data-max=\"(\\d+)\" data-top=\"(\\d+)\""
                    + " data-bottom=\"(\\d+)\" data-left=\"(\\d+)\" data-right=\"(\\d+)\"")
            .matcher(section);
    assertThat(chart.find()).as("the chart in " + section).isTrue();
    double max = Double.parseDouble(chart.group(1));
    double top = Double.parseDouble(chart.group(2));
    double bottom = Double.parseDouble(chart.group(3));
    double left = Double.parseDouble(chart.group(4));
    double right = Double.parseDouble(chart.group(5));
    Matcher line =
        Pattern.compile("<polyline [^>]*data-series=\"" + kind + "\" points=\"([^\"]*)\"")
            .matcher(section);
    assertThat(line.find()).as("the " + kind + " line in " + section).isTrue();
    String[] points = line.group(1).split(" ");
    assertThat(points).hasSize(300);
    long total = 0;
    long early = 0;
    for (int i = 0; i < points.length; i++) {
      String[] xy = points[i].split(",");
      assertThat(Double.parseDouble(xy[0]))
          .as("point " + i + " is its second's place on the time axis")
          .isCloseTo(left + (right - left) * i / 299, within(0.06));
      long requests = Math.round((bottom - Double.parseDouble(xy[1])) / (bottom - top) * max);
      total += requests;
      early += i < 290 ? requests : 0;
    }
    assertThat(total).as(kind + " requests drawn").isEqualTo(sent);
    assertThat(early).as(kind + " requests drawn before the last 10 s").isZero();
  }

  /**
   * The operator's clicks, driven through Chromium's DevTools protocol: blocks a key on the
   * console's form, then starts and applies a trial, each answered by the admin API.
   */
  @Test
  void anOperatorBlocksAKeyAndAppliesATrialFromTheConsole() throws Exception {
    call("GET", "/api/x", null, "abuser");
    try (DevToolsPage page =
        DevToolsPage.open(DRIVES, server.uri("/sign-in").toString(), "1400,1000")) {
      // the sign-in page turns into the console: await waits across the navigation
      assertThat(
              page.await(
                  "document.body && document.body.getAttribute('data-loaded') === 'true'",
                  "document.title"))
          .isEqualTo("Limiter console");
      page.eval(
          "(() => { const s = document.querySelector('section[data-policy=api]');"
              + " const f = [...s.querySelectorAll('form')].find(f => f.textContent.includes('Override a key'));"
              + " f.elements.key.value = 'h:abuser'; f.elements.kind.value = 'block';"
              + " f.requestSubmit(); return 'sent'; })()");
      assertThat(
              page.await(
                  "document.querySelector('section[data-policy=api] table.overrides tr[data-key=\"h:abuser\"]') !== null",
                  "document.getElementById('status').textContent"))
          .isEqualTo("Overriding h:abuser: done.");
      assertThat(call("GET", "/api/x", null, "abuser")).as("blocked").isEqualTo(429);

      page.eval(
          "(() => { const s = document.querySelector('section[data-policy=api]');"
              + " const f = [...s.querySelectorAll('form')].find(f => f.textContent.includes('Look up a key'));"
              + " f.elements.key.value = 'h:abuser'; f.requestSubmit(); return 'sent'; })()");
      assertThat(
              page.await(
                  "document.querySelector('section[data-policy=api] .key-state[data-key=\"h:abuser\"]') !== null",
                  "document.querySelector('section[data-policy=api] .key-state').textContent"))
          .matches("h:abuser: 4 left under 5/h, fresh again in 3[0-9]{3} s · block");

      page.eval(
          "(() => { const s = document.querySelector('section[data-policy=login]');"
              + " const f = [...s.querySelectorAll('form')].find(f => f.textContent.includes('Try in shadow'));"
              + " f.elements.limits.value = '1/1m'; f.elements.period.value = '5m';"
              + " f.requestSubmit(); return 'sent'; })()");
      page.await(
          "document.querySelector('section[data-policy=login] .trial[data-state=running]') !== null",
          "1");
      page.eval(
          "(() => { [...document.querySelectorAll('section[data-policy=login] .trial button')]"
              + ".find(b => b.textContent === 'Apply').click(); return 'sent'; })()");
      assertThat(
              page.await(
                  "document.querySelector('section[data-policy=login] .trial[data-state=applied]') !== null",
                  "document.querySelector('section[data-policy=login] .limits').textContent"))
          .isEqualTo("1/m");
    }
    assertThat(call("GET", "/login/x", null, "walker")).isEqualTo(200);
    assertThat(call("GET", "/login/x", null, "walker")).as("the applied 1/m").isEqualTo(429);
  }

  private static String section(String dom, String policy) {
    int start = dom.indexOf("<section class=\"policy\" data-policy=\"" + policy + "\"");
    assertThat(start).as("the section of policy " + policy + " in " + dom).isNotNegative();
    return dom.substring(start, dom.indexOf("</section>", start));
  }

  private String chromium(String... args) throws IOException, InterruptedException {
    List<String> all = new ArrayList<>(List.of("--virtual-time-budget=10000"));
    all.addAll(List.of(args));
    return Chromium.run(RENDERS, server.uri("/sign-in").toString(), all.toArray(String[]::new));
  }
}
