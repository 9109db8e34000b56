package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.admin.AdminApi;
import io.github.limiter.internal.config.AdminSettings;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.spi.ConfigLookup;
import jakarta.servlet.ServletContext;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The admin API over real HTTP: its routes, its token, and what a change does to requests. */
class AdminApiTest {

  static final String TOKEN = "s3cret-token-of-the-ops-team";

  TestServer server;

  @BeforeEach
  void start() throws Exception {
    Consumer<ServletContext> filter =
        TestServer.filter(
            Props.of(
                "limiter.policy.api.algorithm", "fixed-window",
                "limiter.policy.api.limits", "5/1h",
                "limiter.policy.api.key", "header:X-Api-Key",
                "limiter.route.api.pattern", "/api/*",
                "limiter.route.api.policies", "api",
                "limiter.top-keys.enabled", "true"));
    AdminSettings settings =
        new AdminSettings(true, "/limiter/admin", Optional.empty(), Optional.of(TOKEN));
    server =
        TestServer.start(
            TestServer.context(
                filter.andThen(
                    ctx ->
                        ctx.addServlet(
                                "limiter-admin",
                                new AdminServlet(settings, () -> ContextRuntime.find(ctx)))
                            .addMapping("/limiter/admin/*"))));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  HttpResponse<String> admin(String method, String path, String body, String token)
      throws Exception {
    return admin(server, method, path, body, token);
  }

  static HttpResponse<String> admin(
      TestServer on, String method, String path, String body, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(on.uri("/limiter/admin" + path))
            .timeout(Duration.ofSeconds(20))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return Http.CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  int api(String key) throws Exception {
    URI uri = server.uri("/api/x");
    return Http.get(uri, "X-Api-Key", key).statusCode();
  }

  @Test
  void aStoreInNoRegionHasNoRegionsToShow() throws Exception {
    HttpResponse<String> regions = admin("GET", "/regions", null, TOKEN);

    assertThat(regions.statusCode()).isEqualTo(404);
    assertThat(regions.body()).contains("limiter.redis.region");
  }

  @Test
  void everyRouteNeedsTheTokenAndABadTokenIsNeverEchoed() throws Exception {
    List<String[]> routes =
        List.of(
            new String[] {"GET", "/policies", null},
            new String[] {"PUT", "/policies/api/limits", "{\"limits\":\"1/s\"}"},
            new String[] {"GET", "/policies/api/overrides", null},
            new String[] {"PUT", "/policies/api/overrides/k", "{\"kind\":\"block\"}"},
            new String[] {"DELETE", "/policies/api/overrides/k", null},
            new String[] {"GET", "/policies/api/keys/h:k", null},
            new String[] {"GET", "/policies/api/top-keys", null},
            new String[] {"GET", "/policies/api/traffic", null},
            new String[] {"GET", "/policies/api/trial", null},
            new String[] {"PUT", "/policies/api/trial", "{\"limits\":\"1/s\",\"period\":\"1m\"}"},
            new String[] {"POST", "/policies/api/trial/apply", null},
            new String[] {"DELETE", "/policies/api/trial", null},
            new String[] {"GET", "/regions", null});
    for (String[] route : routes) {
      HttpResponse<String> none = admin(route[0], route[1], route[2], null);
      assertThat(none.statusCode()).as(route[0] + " " + route[1]).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate"))
          .hasValue("Bearer realm=\"limiter\"");
      HttpResponse<String> wrong = admin(route[0], route[1], route[2], "guessed-token-1234567");
      assertThat(wrong.statusCode()).as(route[0] + " " + route[1]).isEqualTo(403);
      assertThat(wrong.body()).doesNotContain("guessed");
    }
    assertThat(admin("GET", "/policies/api/overrides", null, null).body()).doesNotContain(TOKEN);
    assertThat(api("k")).as("nothing changed").isEqualTo(200);
    assertThat(admin("GET", "/policies", null, TOKEN).body()).contains("\"version\":0");
  }

  @Test
  void aQuotaAddedToAPolicyWithoutOneCountsInItsConfiguredZone() throws Exception {
    // Given a policy without quota whose quotas are configured in Tokyo, at noon UTC
    AdminSettings settings =
        new AdminSettings(true, "/limiter/admin", Optional.empty(), Optional.of(TOKEN));
    try (ManualTime time = new ManualTime(Instant.parse("2024-06-01T12:00:00Z"));
        TestServer tokyo =
            TestServer.start(
                TestServer.context(
                    time.filter(
                            Props.of(
                                "limiter.policy.tokyo.algorithm", "token-bucket",
                                "limiter.policy.tokyo.limits", "100/s burst=200",
                                "limiter.policy.tokyo.key", "header:X-Api-Key",
                                "limiter.policy.tokyo.quota.time-zone", "Asia/Tokyo",
                                "limiter.route.all.pattern", "/*",
                                "limiter.route.all.policies", "tokyo"))
                        .andThen(
                            ctx ->
                                ctx.addServlet(
                                        "limiter-admin",
                                        new AdminServlet(settings, () -> ContextRuntime.find(ctx)))
                                    .addMapping("/limiter/admin/*"))))) {
      // When an operator adds a quota of 2 a day through the admin API
      HttpResponse<String> changed =
          admin(
              tokyo,
              "PUT",
              "/policies/tokyo/limits",
              "{\"limits\": \"100/s burst=200, 2/day\"}",
              TOKEN);
      assertThat(changed.statusCode()).isEqualTo(200);

      // Then a key that used it waits until Tokyo's midnight, 3 hours, not UTC's, 12
      URI uri = tokyo.uri("/x");
      assertThat(Http.get(uri, "X-Api-Key", "k").statusCode()).isEqualTo(200);
      assertThat(Http.get(uri, "X-Api-Key", "k").statusCode()).isEqualTo(200);
      HttpResponse<String> refused = Http.get(uri, "X-Api-Key", "k");
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("10800");
      time.advance(Duration.ofHours(3).minusMillis(1));
      assertThat(Http.get(uri, "X-Api-Key", "k").statusCode()).isEqualTo(429);
      time.advance(Duration.ofMillis(1));
      assertThat(Http.get(uri, "X-Api-Key", "k").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aLoweredLimitAppliesAtOnceAndTheKeyKeepsItsCount() throws Exception {
    HttpResponse<String> policies = admin("GET", "/policies", null, TOKEN);
    assertThat(policies.statusCode()).isEqualTo(200);
    assertThat(policies.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/json");
    assertThat(policies.body())
        .isEqualTo(
            "{\"policies\":[{\"policy\":\"api\",\"algorithm\":\"fixed-window\",\"version\":0,"
                + "\"limits\":\"5/h\",\"shared\":false,\"routes\":[\"/api/*\"],\"sites\":[],"
                + "\"keys\":[\"header:X-Api-Key\"],\"onMissingKey\":\"remote-address\"}]}");
    for (int i = 0; i < 3; i++) {
      assertThat(api("k")).isEqualTo(200);
    }

    HttpResponse<String> changed =
        admin("PUT", "/policies/api/limits", "{\"limits\": \"4/1h\"}", TOKEN);

    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(changed.body())
        .contains("\"policy\":\"api\"", "\"version\":1", "\"limits\":\"4/1h\"")
        .doesNotContain("\"name\"");
    assertThat(api("k")).isEqualTo(200);
    assertThat(api("k")).isEqualTo(429);
  }

  @Test
  void aBadLimitIsA400NamingItAndNothingChanges() throws Exception {
    HttpResponse<String> bad =
        admin("PUT", "/policies/api/limits", "{\"limits\": \"4 per hour\"}", TOKEN);

    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("limits: ").contains("4 per hour");
    assertThat(admin("PUT", "/policies/api/limits", "not json", TOKEN).statusCode()).isEqualTo(400);
    assertThat(admin("PUT", "/policies/api/limits", "{}", TOKEN).body())
        .contains("limits: required");
    HttpResponse<String> unknown =
        admin("PUT", "/policies/nope/limits", "{\"limits\":\"1/s\"}", TOKEN);
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body())
        .isEqualTo("{\"error\":\"no policy named 'nope'; the policies are [api]\"}");
    assertThat(admin("GET", "/policies", null, TOKEN).body()).contains("\"version\":0");
  }

  /** Keys are named as Limiter writes them: h:VALUE for a header's value. */
  @Test
  void aKeyIsBlockedOrExemptedUntilItsOverrideIsRemoved() throws Exception {
    HttpResponse<String> blocked =
        admin("PUT", "/policies/api/overrides/h:bad", "{\"kind\":\"block\",\"ttl\":\"1h\"}", TOKEN);
    assertThat(blocked.statusCode()).isEqualTo(200);
    assertThat(blocked.body())
        .contains("\"policy\":\"api\"", "\"key\":\"h:bad\"", "\"kind\":\"block\"")
        .doesNotContain("\"name\"");
    assertThat(
            admin("PUT", "/policies/api/overrides/h:vip", "{\"kind\":\"exempt\"}", TOKEN)
                .statusCode())
        .isEqualTo(200);

    assertThat(api("bad")).isEqualTo(429);
    for (int i = 0; i < 10; i++) {
      assertThat(api("vip")).isEqualTo(200);
    }
    String listed = admin("GET", "/policies/api/overrides", null, TOKEN).body();
    assertThat(listed)
        .contains(
            "{\"key\":\"h:bad\",\"kind\":\"block\",\"limits\":\"\",\"expiresInSeconds\":3600}")
        .contains(
            "{\"key\":\"h:vip\",\"kind\":\"exempt\",\"limits\":\"\",\"expiresInSeconds\":null}");

    assertThat(admin("DELETE", "/policies/api/overrides/h:bad", null, TOKEN).statusCode())
        .isEqualTo(204);
    assertThat(admin("DELETE", "/policies/api/overrides/h:bad", null, TOKEN).statusCode())
        .isEqualTo(404);
    assertThat(api("bad")).isEqualTo(200);
    HttpResponse<String> badKind =
        admin("PUT", "/policies/api/overrides/x", "{\"kind\":\"ban\"}", TOKEN);
    assertThat(badKind.statusCode()).isEqualTo(400);
    assertThat(badKind.body()).contains("kind: ").contains("ban");
  }

  /** A key's state, read without charging it: under the live version, with its override. */
  @Test
  void aKeysStateIsReadWithoutChargingIt() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(api("reader")).isEqualTo(200);
    }

    for (int i = 0; i < 5; i++) {
      HttpResponse<String> state = admin("GET", "/policies/api/keys/h:reader", null, TOKEN);
      assertThat(state.statusCode()).isEqualTo(200);
      assertThat(state.body())
          .startsWith(
              "{\"policy\":\"api\",\"key\":\"h:reader\",\"version\":0,\"limits\":\"5/h\","
                  + "\"limit\":\"5/h\",\"remaining\":2,\"resetSeconds\":")
          .endsWith(",\"override\":null}");
    }
    assertThat(admin("GET", "/policies/api/keys/h:never", null, TOKEN).body())
        .contains("\"remaining\":5,\"resetSeconds\":0,");

    // Then the 2 left pass: the reads charged nothing
    assertThat(api("reader")).isEqualTo(200);
    assertThat(api("reader")).isEqualTo(200);
    assertThat(api("reader")).isEqualTo(429);

    // Under a lowered limit and a block, the key reads its count against the new limit, blocked
    admin("PUT", "/policies/api/limits", "{\"limits\":\"8/1h\"}", TOKEN);
    admin("PUT", "/policies/api/overrides/h:reader", "{\"kind\":\"block\"}", TOKEN);
    assertThat(admin("GET", "/policies/api/keys/h:reader", null, TOKEN).body())
        .contains("\"version\":1,\"limits\":\"8/h\",\"limit\":\"8/h\",\"remaining\":3,")
        .contains("\"override\":{\"key\":\"h:reader\",\"kind\":\"block\"");
    // A key with limits of its own reads under them
    admin(
        "PUT",
        "/policies/api/overrides/h:big",
        "{\"kind\":\"limits\",\"limits\":\"100/1h\"}",
        TOKEN);
    assertThat(api("big")).isEqualTo(200);
    assertThat(admin("GET", "/policies/api/keys/h:big", null, TOKEN).body())
        .contains("\"limit\":\"100/h\",\"remaining\":99,");
    assertThat(admin("GET", "/policies/nope/keys/h:big", null, TOKEN).statusCode()).isEqualTo(404);
    assertThat(admin("GET", "/policies/api/keys/" + "k".repeat(300), null, TOKEN).statusCode())
        .isEqualTo(400);
  }

  @Test
  void theTopKeysListTheHeaviestKeysWithTheirCountsAndErrors() throws Exception {
    for (int i = 0; i < 7; i++) {
      api("heavy");
    }
    api("light");

    HttpResponse<String> top = admin("GET", "/policies/api/top-keys", null, TOKEN);

    assertThat(top.statusCode()).isEqualTo(200);
    assertThat(top.body())
        .contains("\"requests\":8")
        .contains("\"rejections\":2")
        .contains(
            "\"byRequests\":[{\"key\":\"h:heavy\",\"count\":7,\"error\":0},"
                + "{\"key\":\"h:light\",\"count\":1,\"error\":0}]")
        .contains("\"byRejections\":[{\"key\":\"h:heavy\",\"count\":2,\"error\":0}]");
    assertThat(admin("GET", "/policies/nope/top-keys", null, TOKEN).statusCode()).isEqualTo(404);
  }

  @Test
  void theTrafficCountsEachSecondsAdmissionsAndRejectionsOverFiveMinutes() throws Exception {
    for (int i = 0; i < 7; i++) {
      api("heavy");
    }
    api("light");

    HttpResponse<String> traffic = admin("GET", "/policies/api/traffic", null, TOKEN);

    assertThat(traffic.statusCode()).isEqualTo(200);
    assertThat(traffic.body()).startsWith("{\"policy\":\"api\",\"stepSeconds\":1,");
    long[] admitted = series(traffic.body(), "admitted");
    long[] rejected = series(traffic.body(), "rejected");
    assertThat(admitted).hasSize(300);
    assertThat(rejected).hasSize(300);
    // the requests fall in the last few seconds, whenever the test runs
    assertThat(LongStream.of(admitted).sum()).isEqualTo(6);
    assertThat(LongStream.of(rejected).sum()).isEqualTo(2);
    assertThat(LongStream.of(admitted).limit(290).sum()).isZero();
    assertThat(admin("GET", "/policies/nope/traffic", null, TOKEN).statusCode()).isEqualTo(404);
  }

  /** The numbers of the JSON array {@code name} in {@code json}. */
  static long[] series(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\":\\[([0-9,]*)]").matcher(json);
    assertThat(m.find()).as(name + " in " + json).isTrue();
    return Stream.of(m.group(1).split(",")).mapToLong(Long::parseLong).toArray();
  }

  @Test
  void aShadowTrialCountsWhatItWouldRejectAndAppliesKeepingState() throws Exception {
    HttpResponse<String> badLimits =
        admin("PUT", "/policies/api/trial", "{\"limits\":\"2 per h\",\"period\":\"10m\"}", TOKEN);
    assertThat(badLimits.statusCode()).isEqualTo(400);
    assertThat(badLimits.body()).contains("limits: ").contains("2 per h");
    HttpResponse<String> badPeriod =
        admin("PUT", "/policies/api/trial", "{\"limits\":\"2/1h\",\"period\":\"soon\"}", TOKEN);
    assertThat(badPeriod.statusCode()).isEqualTo(400);
    assertThat(badPeriod.body()).contains("period: ").contains("soon");
    assertThat(
            admin("PUT", "/policies/api/trial", "{\"limits\":\"2/1h\",\"period\":\"8d\"}", TOKEN)
                .body())
        .contains("period: ");
    assertThat(admin("GET", "/policies/api/trial", null, TOKEN).statusCode())
        .as("nothing started")
        .isEqualTo(404);

    HttpResponse<String> started =
        admin("PUT", "/policies/api/trial", "{\"limits\":\"2/1h\",\"period\":\"10m\"}", TOKEN);
    assertThat(started.statusCode()).isEqualTo(200);
    assertThat(started.body())
        .contains("\"state\":\"running\"")
        .contains("\"current\":\"5/h\"")
        .contains("\"candidate\":\"2/h\"");
    assertThat(
            admin("PUT", "/policies/api/trial", "{\"limits\":\"1/1h\",\"period\":\"10m\"}", TOKEN)
                .statusCode())
        .as("one trial at a time")
        .isEqualTo(409);
    for (int i = 0; i < 3; i++) {
      assertThat(api("k")).as("the current limits decide").isEqualTo(200);
    }
    assertThat(admin("GET", "/policies/api/trial", null, TOKEN).body())
        .contains("\"requests\":3")
        .contains("\"rejected\":0")
        .contains("\"wouldReject\":1")
        .contains("\"wouldRejectKeys\":[{\"key\":\"h:k\",\"count\":1,\"error\":0}]");

    HttpResponse<String> applied = admin("POST", "/policies/api/trial/apply", null, TOKEN);

    assertThat(applied.statusCode()).isEqualTo(200);
    assertThat(applied.body()).contains("\"version\":1").contains("\"limits\":\"2/h\"");
    assertThat(api("k")).as("the key kept its count of 3 under 2/h").isEqualTo(429);
    assertThat(admin("GET", "/policies", null, TOKEN).body()).contains("\"limits\":\"2/h\"");
    assertThat(admin("GET", "/policies/api/trial", null, TOKEN).body())
        .contains("\"state\":\"applied\"");
    assertThat(admin("POST", "/policies/api/trial/apply", null, TOKEN).statusCode()).isEqualTo(409);
    assertThat(admin("DELETE", "/policies/api/trial", null, TOKEN).statusCode()).isEqualTo(204);
    assertThat(admin("DELETE", "/policies/api/trial", null, TOKEN).statusCode()).isEqualTo(404);
    assertThat(admin("GET", "/policies/api/trial", null, TOKEN).statusCode()).isEqualTo(404);
  }

  @Test
  void everyChangeIsCountedByPolicyAndActionNeverByKey() throws Exception {
    List<String> counted = new java.util.concurrent.CopyOnWriteArrayList<>();
    io.github.limiter.internal.metrics.Recorder recorder =
        new io.github.limiter.internal.metrics.Recorder() {
          @Override
          public void decision(String policy, Verdict outcome, boolean verified) {}

          @Override
          public void nearLimit(String policy) {}

          @Override
          public void shapingDelay(String policy, long nanos) {}

          @Override
          public void storeDuration(String store, long nanos) {}

          @Override
          public void watch(io.github.limiter.internal.metrics.StoreGauges store) {}

          @Override
          public void adminChange(String policy, String action) {
            counted.add(policy + " " + action);
          }
        };
    LimiterRuntime runtime =
        LimiterRuntime.over(
            io.github.limiter.memory.InMemoryStore.builder().build(),
            LimiterConfig.from(ConfigLookup.of(Map.of())),
            null,
            getClass().getClassLoader(),
            recorder);
    runtime
        .live()
        .store()
        .bind(io.github.limiter.Policy.fixedWindow("web", io.github.limiter.Limit.parse("5/1h")));
    AdminSettings settings = new AdminSettings(true, "/ops", Optional.empty(), Optional.of(TOKEN));
    try (TestServer ops =
        TestServer.start(
            TestServer.context(
                ctx ->
                    ctx.addServlet("ops", new AdminServlet(settings, () -> runtime))
                        .addMapping("/ops/*")))) {
      java.util.function.BiFunction<String, String, Integer> call =
          (path, body) -> {
            try {
              HttpRequest.Builder request =
                  HttpRequest.newBuilder(ops.uri("/ops" + path))
                      .header("Authorization", "Bearer " + TOKEN)
                      .method(
                          body == null ? "DELETE" : "PUT",
                          body == null
                              ? HttpRequest.BodyPublishers.noBody()
                              : HttpRequest.BodyPublishers.ofString(body));
              return Http.CLIENT
                  .send(request.build(), HttpResponse.BodyHandlers.ofString())
                  .statusCode();
            } catch (Exception e) {
              throw new AssertionError(e);
            }
          };
      assertThat(call.apply("/policies/web/limits", "{\"limits\":\"3/1h\"}")).isEqualTo(200);
      assertThat(call.apply("/policies/web/overrides/h:bad", "{\"kind\":\"block\"}"))
          .isEqualTo(200);
      assertThat(call.apply("/policies/web/overrides/h:bad", null)).isEqualTo(204);
      assertThat(call.apply("/policies/web/limits", "{\"limits\":\"x\"}")).isEqualTo(400);
    }
    assertThat(counted)
        .containsExactly("web limits", "web override-block", "web override-remove")
        .noneMatch(c -> c.contains("h:bad"));
  }

  /**
   * A ttl beyond what the clock holds is a 400 that names the bound and the value, as a ttl that
   * does not parse is: never a 503 of an overflow.
   */
  @Test
  void aTtlBeyondAHundredYearsIsA400NamingItsBound() throws Exception {
    HttpResponse<String> tooLong =
        admin(
            "PUT",
            "/policies/api/overrides/h:k",
            "{\"kind\":\"block\",\"ttl\":\"1000000d\"}",
            TOKEN);
    assertThat(tooLong.statusCode()).isEqualTo(400);
    assertThat(tooLong.body())
        .contains("\"error\":\"ttl: expected a duration above 0 and at most 36500d")
        .contains("was 1000000d");
    HttpResponse<String> overflow =
        admin(
            "PUT",
            "/policies/api/overrides/h:k",
            "{\"kind\":\"block\",\"ttl\":\"99999999999999999999d\"}",
            TOKEN);
    assertThat(overflow.statusCode()).isEqualTo(400);
    assertThat(overflow.body()).contains("\"error\":\"ttl: ").contains("99999999999999999999d");
    assertThat(
            admin(
                    "PUT",
                    "/policies/api/overrides/h:k",
                    "{\"kind\":\"block\",\"ttl\":\"36500d\"}",
                    TOKEN)
                .statusCode())
        .isEqualTo(200);
    assertThat(admin("GET", "/policies/api/overrides", null, TOKEN).body())
        .contains("\"key\":\"h:k\"", "\"expiresInSeconds\":3153600000}");
  }

  /** The JSON answers write markup characters as escapes: a name never becomes markup. */
  @Test
  void anErrorEscapesMarkup() throws Exception {
    HttpResponse<String> unknown =
        admin("PUT", "/policies/%3Cscript%3E/limits", "{\"limits\":\"1/s\"}", TOKEN);
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body())
        .doesNotContain("<", ">")
        .startsWith("{\"error\":\"no policy named '\\u003cscript\\u003e'; the policies are");
  }

  /**
   * A key with CR/LF cannot split the change's log line: the line names it with the line breaks
   * escaped.
   */
  @Test
  void aKeyWithALineBreakStaysOnTheChangesLogLine() throws Exception {
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
    // Payara takes an encoded CR/LF in a path; Jetty takes it when told to
    server
        .server
        .getConnectors()[0]
        .getConnectionFactory(HttpConnectionFactory.class)
        .getHttpConfiguration()
        .setUriCompliance(
            UriCompliance.DEFAULT.with(
                "as Payara", UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS));
    try {
      // When an operator blocks the key an attacker chose
      HttpResponse<String> set =
          admin(
              "PUT",
              "/policies/api/overrides/atk%0D%0ASet-Cookie:%20pwn=1",
              "{\"kind\":\"block\"}",
              TOKEN);
      assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
      assertThat(
              admin("DELETE", "/policies/api/overrides/atk%0D%0ASet-Cookie:%20pwn=1", null, TOKEN)
                  .statusCode())
          .isEqualTo(204);
    } finally {
      log.removeHandler(handler);
    }
    // Then each change is one line, with the key's line break escaped
    assertThat(lines).hasSize(2).noneMatch(line -> line.contains("\r") || line.contains("\n"));
    assertThat(lines.get(0))
        .startsWith(
            "limiter admin: token set the override of key 'atk\\r\\nSet-Cookie: pwn=1' of policy"
                + " 'api' to block at ");
    assertThat(lines.get(1))
        .startsWith(
            "limiter admin: token removed the override of key 'atk\\r\\nSet-Cookie: pwn=1' of"
                + " policy 'api' at ");
  }
}
