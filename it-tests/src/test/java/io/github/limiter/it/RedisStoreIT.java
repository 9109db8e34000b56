package io.github.limiter.it;

import static io.github.limiter.it.harness.RateLimitAssertions.assertAdmitted;
import static io.github.limiter.it.harness.RateLimitAssertions.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.cdi.ItemsResource;
import io.github.limiter.it.app.cdi.RestApplication;
import io.github.limiter.it.app.servlet.AnnotatedRateLimitFilter;
import io.github.limiter.it.app.servlet.EchoServlet;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.OneBudget;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import io.github.limiter.it.harness.RedisForSuite;
import io.github.limiter.it.harness.Settings;
import io.github.limiter.tck.redis.RedisServer;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The Redis store on a real server: {@code limiter.store=redis} in the WAR's MicroProfile Config, a
 * redis-server of the test's own on a free loopback port. The filter's routes and {@code @Limited}
 * both decide there, with each algorithm's Lua script.
 */
@ExtendWith({RedisForSuite.class, ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisStoreIT {

  private static final List<String> ALGORITHMS =
      List.of(
          "fixed-window",
          "sliding-window-counter",
          "sliding-window-log",
          "token-bucket",
          "leaky-bucket");

  @Deployment
  static WebArchive app() {
    StringBuilder config =
        new StringBuilder()
            .append("limiter.store=redis\n")
            .append("limiter.redis.url=")
            .append(RedisForSuite.server().url())
            .append('\n')
            .append("limiter.redis.key-prefix=it:\n")
            // Short timeouts, so that the outage test below is quick.
            .append("limiter.redis.connect-timeout=300ms\n")
            .append("limiter.redis.socket-timeout=300ms\n");
    policy(config, "api", "fixed-window", "3/m", "/api/*", "");
    policy(config, "rest", "token-bucket", "3/m", null, "");
    policy(config, "shared", "sliding-window-counter", "4/m", null, "");
    policy(config, "budget", "fixed-window", "5/h", "/rest/items/routed", "");
    for (String algorithm : ALGORITHMS) {
      // Leaky bucket: nodelay, so that a full bucket rejects instead of shaping.
      policy(
          config,
          algorithm,
          algorithm,
          "2/m",
          "/alg/" + algorithm + "/*",
          algorithm.equals("leaky-bucket") ? "nodelay=true" : "");
    }
    policy(config, "closed", "fixed-window", "100/m", "/closed/*", "failure=fail-closed");
    policy(config, "open", "fixed-window", "100/m", "/open/*", "failure=fail-open");
    policy(config, "local", "fixed-window", "100/m", "/local/*", "failure=local");
    return ShrinkWrap.create(WebArchive.class, "redis-store.war")
        .addClasses(
            EchoServlet.class,
            AnnotatedRateLimitFilter.class,
            RestApplication.class,
            ItemsResource.class)
        .addAsResource(
            new StringAsset(config.toString()), "META-INF/microprofile-config.properties");
  }

  /**
   * A policy keyed by X-Client, with a route when {@code pattern} is set, and one extra key=value.
   */
  private static void policy(
      StringBuilder config,
      String name,
      String algorithm,
      String limits,
      String pattern,
      String extra) {
    String base = "limiter.policy." + name + ".";
    config
        .append(base)
        .append("algorithm=")
        .append(algorithm)
        .append('\n')
        .append(base)
        .append("limits=")
        .append(limits)
        .append('\n')
        .append(base)
        .append("key=header:X-Client\n");
    if (!extra.isEmpty()) {
      config.append(base).append(extra).append('\n');
    }
    if (pattern != null) {
      config
          .append("limiter.route.")
          .append(name)
          .append(".pattern=")
          .append(pattern)
          .append('\n')
          .append("limiter.route.")
          .append(name)
          .append(".policies=")
          .append(name)
          .append('\n');
    }
  }

  /**
   * Whether the server serves MicroProfile Health on the HTTP port: Payara and Open Liberty do;
   * WildFly serves it on its management interface, so there only the decisions are checked.
   */
  private static final boolean HEALTH = !Settings.isWildFly();

  @ArquillianResource URL url;

  private HttpResponse<String> get(String path, String client) {
    return Http.get(Deployed.base(url).resolve(path), "X-Client", client);
  }

  private static RedisServer redis() {
    return RedisForSuite.server();
  }

  private static List<String> keys(String pattern) {
    return RedisForSuite.keys(redis(), pattern);
  }

  @Test
  @Order(1)
  void theFilterDecidesInRedis() {
    for (int i = 0; i < 3; i++) {
      assertAdmitted(get("api/x", "filter"), "api", 2 - i);
    }
    assertRejected(get("api/x", "filter"), "api", 60);

    assertThat(keys("it:{api:*"))
        .isNotEmpty()
        .allSatisfy(key -> assertThat(key).contains("filter"));
  }

  @Test
  @Order(2)
  void theStateLivesInRedisNotInTheServer() {
    for (int i = 0; i < 3; i++) {
      get("api/x", "wiped");
    }
    assertThat(get("api/x", "wiped").statusCode()).isEqualTo(429);

    redis().flushAll();

    assertAdmitted(get("api/x", "wiped"), "api", 2);
  }

  @Test
  @Order(3)
  void limitedDecidesInRedisAndTheMapperRejects() {
    URI items = Deployed.base(url).resolve("rest/items");
    for (int i = 0; i < 3; i++) {
      assertAdmitted(Http.get(items, "X-Client", "cdi"), "rest", 2 - i);
    }
    assertRejected(Http.get(items, "X-Client", "cdi"), "rest", 20);

    assertThat(keys("it:{rest:*")).isNotEmpty();
  }

  @Test
  @Order(3)
  void aPolicyOfARouteAndOfAResourceIsOneBudgetInRedis() {
    OneBudget.refusesTheSixthCallWhicheverWayTheCallsAreSplit(Deployed.base(url), "redis");
    assertThat(keys("it:{budget:*")).isNotEmpty();
  }

  @ParameterizedTest
  @FieldSource("ALGORITHMS")
  @Order(4)
  void everyAlgorithmRunsItsScript(String algorithm) {
    String path = "alg/" + algorithm + "/x";
    int admitted = 0;
    HttpResponse<String> response = get(path, "alg");
    for (; response.statusCode() == 200 && admitted < 10; response = get(path, "alg")) {
      admitted++;
    }

    // 2 per minute. The leaky bucket admits while its level is below 2: the queue drains a little
    // between requests, so the third finds 1.99 and is queued too.
    assertThat(admitted).isEqualTo(algorithm.equals("leaky-bucket") ? 3 : 2);
    assertRejected(response, algorithm, 60);
    assertThat(keys("it:{" + algorithm + ":*")).isNotEmpty();
  }

  @Test
  @Order(5)
  void duringAnOutageEachPolicyFailsAsConfigured() {
    assertThat(get("closed/x", "outage").statusCode()).isEqualTo(200);

    redis().kill();

    HttpResponse<String> closed = get("closed/x", "outage");
    assertThat(closed.statusCode()).isEqualTo(503);
    assertThat(closed.headers().firstValue("Retry-After")).isPresent();
    assertThat(closed.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(get("open/x", "outage").statusCode()).isEqualTo(200);
    assertThat(get("local/x", "outage").statusCode()).isEqualTo(200);
  }

  /**
   * The {@code limiter} readiness check (on the HTTP port, see {@link #HEALTH}) goes DOWN once the
   * breaker opens: at the latest after {@code breaker.failure-threshold} (5) decisions on the dead
   * Redis, three of which the test above made.
   */
  @Test
  @Order(6)
  void whileRedisIsDownAFailClosedPolicyMakesTheApplicationNotReady() {
    int decisions = 0;
    while (decisions < 5 && (!HEALTH || isReady())) {
      assertThat(get("closed/x", "outage").statusCode()).isEqualTo(503);
      decisions++;
    }

    if (HEALTH) {
      assertThat(isReady())
          .as("ready after %d more decisions on a dead Redis", decisions)
          .isFalse();
    }
  }

  /**
   * Redis back: after {@code breaker.open-duration} (1 s) one decision probes it, the breaker
   * closes, and the check is UP again.
   */
  @Test
  @Order(7)
  void onceRedisIsBackTheApplicationIsReadyAgain() throws InterruptedException {
    redis().restart();

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    int status = get("closed/x", "back").statusCode();
    while (status != 200 && System.nanoTime() - deadline < 0) {
      Thread.sleep(200);
      status = get("closed/x", "back").statusCode();
    }

    assertThat(status).isEqualTo(200);
    if (HEALTH) {
      assertThat(isReady()).isTrue();
    }
  }

  /** Whether the {@code limiter} readiness check is UP, on the server's HTTP port. */
  private boolean isReady() {
    HttpResponse<String> ready =
        Http.get(URI.create("http://127.0.0.1:" + url.getPort() + "/health/ready"));
    assertThat(ready.body()).contains("\"limiter\"");
    // 200 when every readiness check is UP, 503 when one is DOWN: only the limiter's can go DOWN
    // here.
    assertThat(ready.statusCode()).isIn(200, 503);
    return ready.statusCode() == 200;
  }
}
