package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.AdminSettings;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import jakarta.servlet.ServletContext;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin API's {@code GET /regions}: a global policy's share of the one budget in this node's
 * region (docs/multi-region.md), on a Redis store in region {@code east}, with the global budget on
 * another real redis-server.
 */
class AdminRegionsTest {

  RedisServer global;
  RedisServer east;
  TestServer server;

  @BeforeEach
  void start() throws Exception {
    global = RedisServer.start("admin-global");
    east = RedisServer.start("admin-east");
    Consumer<ServletContext> filter =
        TestServer.filter(
            Props.of(
                "limiter.store", "redis",
                "limiter.redis.url", east.url(),
                "limiter.redis.key-prefix", "admin:" + UUID.randomUUID() + ":",
                "limiter.redis.region", "east",
                "limiter.redis.region.global-url", global.url(),
                "limiter.redis.region.policies", "global-api",
                "limiter.policy.global-api.algorithm", "token-bucket",
                "limiter.policy.global-api.limits", "100/s burst=1000",
                "limiter.policy.global-api.key", "constant",
                "limiter.policy.global-api.failure", "fail-closed",
                "limiter.policy.global-api.lease", "on",
                "limiter.policy.global-api.lease-max-slice", "100",
                "limiter.route.api.pattern", "/api/*",
                "limiter.route.api.policies", "global-api"));
    AdminSettings settings =
        new AdminSettings(
            true, "/limiter/admin", Optional.empty(), Optional.of(AdminApiTest.TOKEN));
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
    if (server != null) {
      server.close();
    }
    if (east != null) {
      east.close();
    }
    if (global != null) {
      global.close();
    }
  }

  @Test
  void eachGlobalPolicyShowsTheRegionsShareOfTheBudget() throws Exception {
    // Given requests the region's pool paid (its first refill runs in the background)
    Await.until(
        "a request admitted from the region's pool",
        Duration.ofSeconds(10),
        () -> {
          try {
            return Http.get(server.uri("/api/x")).statusCode() == 200;
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });

    // When the operator asks for the regions
    HttpResponse<String> regions =
        AdminApiTest.admin(server, "GET", "/regions", null, AdminApiTest.TOKEN);

    // Then it shows the region and the policy's share: granted by the global budget, the whole
    // capacity its fair share (the only region), and what the global budget had left after that
    assertThat(regions.statusCode()).as(regions.body()).isEqualTo(200);
    assertThat(regions.body())
        .startsWith("{\"region\":\"east\",\"policies\":[{\"policy\":\"global-api\",\"held\":")
        .contains("\"fairShare\":1000")
        .containsPattern("\"leased\":[1-9]")
        .containsPattern("\"granted\":[1-9]")
        .containsPattern("\"globalRemaining\":[1-9]")
        .containsPattern("\"lastRefillSecondsAgo\":[0-9]");
    // and only to an operator
    assertThat(AdminApiTest.admin(server, "GET", "/regions", null, null).statusCode())
        .isEqualTo(401);
  }
}
