package io.github.limiter.it.conformance;

import static io.github.limiter.it.harness.RateLimitAssertions.assertAdmitted;
import static io.github.limiter.it.harness.RateLimitAssertions.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.Prometheus;
import io.github.limiter.it.harness.RedisForSuite;
import io.github.limiter.tck.redis.RedisServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The conformance application on two nodes of the selected runtime ({@link
 * ConformanceRuntime#selected}), sharing a redis-server of the test's own: the same assertions on
 * Payara Micro, WildFly, Open Liberty and Quarkus.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RateLimitConformanceIT {

  private static final Duration START = Duration.ofMinutes(4);
  private static final String ROUTE = "conformance-route";
  private static final String LIMITED = "conformance-limited";

  private static RedisServer redis;
  private static ServerNode a;
  private static ServerNode b;

  /** Each policy's answers by status, over both nodes: what the metrics must add up to. */
  private static final Map<String, Map<Integer, Integer>> ANSWERS = new ConcurrentHashMap<>();

  @BeforeAll
  static void startTwoNodes() {
    redis = RedisServer.start("conformance");
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("limiter.store", "redis");
    settings.put("limiter.redis.url", redis.url());
    settings.put("limiter.redis.key-prefix", "conformance:");
    // A stopped Redis refuses connections at once; these only bound a call on a busy machine.
    settings.put("limiter.redis.connect-timeout", "2s");
    settings.put("limiter.redis.socket-timeout", "2s");
    // Refused, not let through, while Redis is away: the readiness check then says DOWN.
    settings.put("limiter.policy." + ROUTE + ".failure", "fail-closed");
    settings.put("limiter.policy." + LIMITED + ".failure", "fail-closed");
    ConformanceRuntime runtime = ConformanceRuntime.selected();
    a = runtime.start("a", settings);
    b = runtime.start("b", settings);
    // Both boot at once; wait for each in turn.
    CompletableFuture.allOf(
            CompletableFuture.runAsync(() -> a.awaitReady(START)),
            CompletableFuture.runAsync(() -> b.awaitReady(START)))
        .join();
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {a, b, redis}) {
      try {
        if (closeable != null) {
          closeable.close();
        }
      } catch (Exception e) {
        System.out.println("stopping " + closeable + ": " + e);
      }
    }
  }

  private static HttpResponse<String> get(ServerNode node, String policy, String client) {
    String path = policy.equals(ROUTE) ? "api/route" : "api/limited";
    HttpResponse<String> response = Http.get(node.app(path), "X-Client", client);
    ANSWERS
        .computeIfAbsent(policy, p -> new ConcurrentHashMap<>())
        .merge(response.statusCode(), 1, Integer::sum);
    return response;
  }

  @Test
  @Order(1)
  void everyListenerOfEveryNodeIsOnLoopback() {
    for (ServerNode node : List.of(a, b)) {
      List<Listeners.Listener> listeners = Listeners.of(node.pids());
      System.out.println(node + " (PIDs " + node.pids() + ") listens on " + listeners);
      assertThat(listeners).as("listeners of %s", node).isNotEmpty();
      assertThat(listeners)
          .as("listeners of %s (PIDs %s)", node, node.pids())
          .allMatch(Listeners.Listener::isLoopback);
    }
  }

  @Test
  @Order(2)
  void aRouteGivesA429WithRetryAfterAndNoStoreAfterItsLimit() {
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> response = get(a, ROUTE, "route");
      assertAdmitted(response, ROUTE, 2 - i);
      assertThat(response.body()).isEqualTo("route");
    }
    assertRejected(get(a, ROUTE, "route"), ROUTE, 60);
  }

  @Test
  @Order(3)
  void aLimitedMethodGivesA429ThroughTheExceptionMapperAfterItsLimit() {
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> response = get(a, LIMITED, "limited");
      assertAdmitted(response, LIMITED, 1 - i);
      assertThat(response.body()).isEqualTo("limited");
    }
    assertRejected(get(a, LIMITED, "limited"), LIMITED, 60);
  }

  @Test
  @Order(4)
  void twoNodesShareOneBudgetOverRedis() {
    assertAdmitted(get(a, ROUTE, "shared"), ROUTE, 2);
    assertAdmitted(get(b, ROUTE, "shared"), ROUTE, 1);
    assertAdmitted(get(a, ROUTE, "shared"), ROUTE, 0);
    assertRejected(get(b, ROUTE, "shared"), ROUTE, 60);
    assertRejected(get(a, ROUTE, "shared"), ROUTE, 60);

    assertAdmitted(get(b, LIMITED, "shared"), LIMITED, 1);
    assertAdmitted(get(a, LIMITED, "shared"), LIMITED, 0);
    assertRejected(get(b, LIMITED, "shared"), LIMITED, 60);

    assertThat(RedisForSuite.keys(redis, "conformance:*"))
        .anySatisfy(key -> assertThat(key).contains(ROUTE).contains("shared"))
        .anySatisfy(key -> assertThat(key).contains(LIMITED).contains("shared"));
  }

  @Test
  @Order(5)
  void theMetricsCounterOnTheRuntimesEndpointEqualsThe429s() {
    for (String policy : List.of(ROUTE, LIMITED)) {
      Map<Integer, Integer> answers = ANSWERS.getOrDefault(policy, Map.of());
      assertThat(answers.keySet()).as("statuses of %s", policy).containsOnly(200, 429);
      double rejected = 0;
      double admitted = 0;
      for (ServerNode node : List.of(a, b)) {
        String scrape = node.scrape();
        rejected +=
            Prometheus.sum(
                scrape, "limiter_decisions_total", "policy", policy, "outcome", "rejected");
        admitted +=
            Prometheus.sum(
                scrape, "limiter_decisions_total", "policy", policy, "outcome", "admitted");
      }
      assertThat(rejected)
          .as("limiter_decisions_total{policy=%s,outcome=rejected} over both nodes", policy)
          .isEqualTo(answers.get(429).doubleValue());
      assertThat(admitted)
          .as("limiter_decisions_total{policy=%s,outcome=admitted} over both nodes", policy)
          .isEqualTo(answers.get(200).doubleValue());
    }
  }

  /**
   * Up while Redis answers; down once the store's breaker opens, at the latest after {@code
   * breaker.failure-threshold} (5) decisions on the stopped Redis, because a fail-closed policy
   * then refuses every request.
   */
  @Test
  @Order(6)
  void readinessIsUpThenDownWhenRedisStops() {
    for (ServerNode node : List.of(a, b)) {
      HttpResponse<String> ready = node.readiness();
      assertThat(ready.statusCode()).as("%s: %s", node, ready.body()).isEqualTo(200);
      assertThat(ready.body()).contains("\"limiter\"");
    }

    redis.kill();

    for (ServerNode node : List.of(a, b)) {
      int decisions = 0;
      while (decisions < 8 && node.readiness().statusCode() == 200) {
        assertThat(Http.get(node.app("api/route"), "X-Client", "outage").statusCode())
            .isEqualTo(503);
        decisions++;
      }
      HttpResponse<String> ready = node.readiness();
      assertThat(ready.statusCode())
          .as("%s after %d decisions on a stopped Redis: %s", node, decisions, ready.body())
          .isEqualTo(503);
      assertThat(ready.body()).contains("\"limiter\"").contains("DOWN");
    }
  }
}
