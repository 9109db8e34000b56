package io.github.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.harness.Burst;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PayaraNode;
import io.github.limiter.it.harness.Prometheus;
import io.github.limiter.it.harness.RedisForSuite;
import io.github.limiter.it.harness.ServerLog;
import io.github.limiter.it.harness.Settings;
import io.github.limiter.tck.redis.Pause;
import io.github.limiter.tck.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The demo WAR as built, on two Payara Micro nodes behind a round-robin client (the article's
 * section 7 as a measurement). Two nodes share one Redis; two others count in memory each.
 *
 * <p>Policy of {@code /api/hello}: token bucket, 10/s, capacity 20, per client address. A dense
 * burst of t seconds drains a token bucket of about {@code 20 + 10 t}: through Redis the two nodes
 * hold one bucket, so that is the total; in memory each node holds its own, so the total is twice
 * that.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoTwoNodesIT {

  private static final int CAPACITY = 20;
  private static final double RATE = 10;
  private static final int REQUESTS = 120;
  private static final int CLIENTS = 4;

  /** A policy and route that exist only in environment variables, set on node memory-b alone. */
  private static final Map<String, String> FROM_ENVIRONMENT =
      Map.of(
          "LIMITER_POLICIES", "from-env",
          "LIMITER_POLICY_FROM_ENV_ALGORITHM", "fixed-window",
          "LIMITER_POLICY_FROM_ENV_LIMITS", "1/h",
          "LIMITER_POLICY_FROM_ENV_ON_MISSING_KEY", "allow",
          "LIMITER_ROUTES", "from-env",
          "LIMITER_ROUTE_FROM_ENV_PATTERN", "/from-env/*",
          "LIMITER_ROUTE_FROM_ENV_POLICIES", "from-env");

  private static RedisServer redis;
  private static PayaraNode redisA;
  private static PayaraNode redisB;
  private static PayaraNode memoryA;
  private static PayaraNode memoryB;

  @BeforeAll
  static void startNodes() {
    Path war = Path.of(Settings.required("it.demo.war"));
    assertThat(war).exists();
    redis = RedisServer.start("two-nodes");
    Map<String, String> redisStore =
        Map.of("LIMITER_STORE", "redis", "LIMITER_REDIS_URL", redis.url());
    // Booting four JVMs at once takes about as long as two after another on two cores, and half as
    // long as four.
    redisA = PayaraNode.start("redis-a", war, "/demo", redisStore);
    // Both Redis nodes call one stand-in partner: node a's own.
    Map<String, String> callingA = new java.util.HashMap<>(redisStore);
    callingA.put("DEMO_PARTNER_URL", redisA.base().resolve("api/cdi/partner").toString());
    redisB = PayaraNode.start("redis-b", war, "/demo", callingA);
    memoryA = PayaraNode.start("memory-a", war, "/demo", Map.of());
    memoryB = PayaraNode.start("memory-b", war, "/demo", FROM_ENVIRONMENT);
    for (PayaraNode node : nodes()) {
      node.awaitReady(Duration.ofSeconds(180));
    }
  }

  @AfterAll
  static void stopNodes() {
    nodes().parallelStream().forEach(PayaraNode::close);
    if (redis != null) {
      redis.close();
    }
  }

  private static List<PayaraNode> nodes() {
    return Stream.of(redisA, redisB, memoryA, memoryB).filter(n -> n != null).toList();
  }

  @Test
  @Order(1)
  void startsAndServesItsPageOnLoopback() {
    HttpResponse<String> page = Http.get(memoryA.base());

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body())
        .contains("Limiter demo", "/api/hello", "/api/cdi/hello", "/api/cdi/partner-call", "curl");
    // Its commands name the address it was asked at: this node's port and context root
    assertThat(page.body())
        .contains("curl -i " + memoryA.base().resolve("api/hello"))
        .doesNotContain("127.0.0.1:8080");
    // Without LIMITER_ADMIN_TOKEN, the admin API and its console are not there; the page says how
    assertThat(page.body()).contains("LIMITER_ADMIN_TOKEN", "limiter/admin/");
    assertThat(Http.get(memoryA.base().resolve("limiter/admin/")).statusCode()).isEqualTo(404);
    assertThat(Http.get(redisA.base().resolve("limiter/admin/policies")).statusCode())
        .isEqualTo(404);
    for (PayaraNode node : nodes()) {
      assertThat(node.logText()).contains("bound to [/127.0.0.1:" + node.port() + "]");
      assertThat(ServerLog.listenerAddresses(node.logText())).containsOnly("127.0.0.1");
    }
  }

  @Test
  @Order(2)
  void throughRedisTwoNodesAdmitTheLimitOnce() {
    List<URI> hello =
        List.of(redisA.base().resolve("api/hello"), redisB.base().resolve("api/hello"));
    warmUp(hello);
    redis.flushAll();

    Burst burst = Burst.roundRobin(hello, REQUESTS, CLIENTS);

    System.out.printf(
        "two nodes, one Redis: %s; one bucket admits %d..%d%n", burst, fewest(burst), most(burst));
    assertThat(burst.admitted()).isBetween(fewest(burst), most(burst));
    assertThat(burst.admittedByTarget().values()).allSatisfy(n -> assertThat(n).isPositive());
    assertThat(RedisForSuite.keys(redis, "*")).isNotEmpty();
  }

  @Test
  @Order(3)
  void inMemoryTwoNodesAdmitAboutTwiceTheLimit() {
    List<URI> hello =
        List.of(memoryA.base().resolve("api/hello"), memoryB.base().resolve("api/hello"));
    warmUp(hello);
    awaitFullBuckets();

    Burst burst = Burst.roundRobin(hello, REQUESTS, CLIENTS);

    // Each node's last request may go out a moment before the burst's last: 1 more of slack per
    // node.
    int fewestPerNode = fewest(burst) - 1;
    System.out.printf(
        "two nodes, in memory: %s; two buckets admit %d..%d%n",
        burst, 2 * fewestPerNode, 2 * most(burst));
    assertThat(burst.admitted()).isBetween(2 * fewestPerNode, 2 * most(burst));
    assertThat(burst.admittedByTarget().values())
        .allSatisfy(n -> assertThat(n).isBetween(fewestPerNode, most(burst)));
  }

  @Test
  @Order(4)
  void aRejectionCarriesRetryAfterAndTheRateLimitHeaders() {
    URI hello = memoryA.base().resolve("api/hello");
    HttpResponse<String> rejected = null;
    for (int i = 0; i <= CAPACITY + 5 && rejected == null; i++) {
      HttpResponse<String> response = Http.get(hello);
      if (response.statusCode() == 429) {
        rejected = response;
      }
    }

    assertThat(rejected).as("a 429 within capacity + 5 requests").isNotNull();
    assertThat(rejected.headers().firstValue("Retry-After"))
        .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(1L, 2L));
    assertThat(rejected.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(rejected.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(rejected.headers().firstValue("RateLimit-Policy")).hasValue("\"hello\";q=20;w=2");
    assertThat(rejected.headers().firstValue("RateLimit"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("\"hello\";r=0;t="));
    assertThat(rejected.body()).contains("\"status\":429", "hello");
  }

  @Test
  @Order(5)
  void theLimitedResourceAdmitsFivePerTenSeconds() {
    URI cdiHello = memoryB.base().resolve("api/cdi/hello");
    int admitted = 0;
    HttpResponse<String> rejected = null;
    // Fixed windows of 10 s: a burst that crosses a window boundary may see up to 2 x 5 admitted.
    for (int i = 0; i < 12 && rejected == null; i++) {
      HttpResponse<String> response = Http.get(cdiHello);
      if (response.statusCode() == 200) {
        admitted++;
      } else {
        rejected = response;
      }
    }

    assertThat(admitted).isBetween(5, 10);
    assertThat(rejected).isNotNull();
    assertThat(rejected.statusCode()).isEqualTo(429);
    assertThat(rejected.headers().firstValue("Retry-After"))
        .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(1L, 10L));
    assertThat(rejected.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(rejected.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
  }

  /**
   * Payara's MicroProfile Config finds a policy set only in the environment once limiter.policies
   * names it.
   */
  @Test
  @Order(6)
  void aPolicyFromEnvironmentVariablesOnly() {
    URI limited = memoryB.base().resolve("from-env/x");
    HttpResponse<String> first = Http.get(limited);
    HttpResponse<String> second = Http.get(limited);

    assertThat(first.statusCode()).isNotEqualTo(429);
    assertThat(first.headers().firstValue("RateLimit-Policy")).hasValue("\"from-env\";q=1;w=3600");
    assertThat(second.statusCode()).isEqualTo(429);
    // The node without those variables knows no such policy.
    URI unlimited = memoryA.base().resolve("from-env/x");
    assertThat(Http.get(unlimited).headers().firstValue("RateLimit-Policy")).isEmpty();
    assertThat(Http.get(unlimited).statusCode()).isNotEqualTo(429);
  }

  @Test
  @Order(6)
  void aCostlyCallDrainsTheQuotaFaster() {
    // The demo's LLM stand-in: 200 tokens at once per API key, each call costs the tokens it asks
    URI llm = memoryA.base().resolve("api/cdi/llm");

    int costly = Http.get(URI.create(llm + "?tokens=150"), "X-Api-Key", "it-costly").statusCode();
    int more = Http.get(URI.create(llm + "?tokens=100"), "X-Api-Key", "it-costly").statusCode();
    int cheap = Http.get(URI.create(llm + "?tokens=1"), "X-Api-Key", "it-cheap").statusCode();

    // 150 of 200 pass, then 100 more cannot; a 1-token call of another key still passes
    assertThat(costly).isEqualTo(200);
    assertThat(more).isEqualTo(429);
    assertThat(cheap).isEqualTo(200);
  }

  @Test
  @Order(6)
  void aCallIsChargedWhatItReportsItUsed() {
    // Each call reserves 150 of the 200 tokens and reports using 10: the rest comes back, so
    // five pass; one that reports 400 leaves the key owing, and the next call is refused
    URI llm = memoryA.base().resolve("api/cdi/llm");
    int[] settled = new int[600];
    for (int i = 0; i < 5; i++) {
      settled[
          Http.get(URI.create(llm + "?tokens=150&used=10"), "X-Api-Key", "it-used").statusCode()]++;
    }
    int overrun =
        Http.get(URI.create(llm + "?tokens=10&used=400"), "X-Api-Key", "it-over").statusCode();
    HttpResponse<String> owing = Http.get(URI.create(llm + "?tokens=1"), "X-Api-Key", "it-over");

    assertThat(settled[200]).isEqualTo(5);
    assertThat(overrun).isEqualTo(200);
    assertThat(owing.statusCode()).isEqualTo(429);
    // 400 of a 200 bucket at 100 a minute: owed until more than a minute from now
    assertThat(owing.headers().firstValue("Retry-After").map(Long::parseLong))
        .hasValueSatisfying(seconds -> assertThat(seconds).isGreaterThan(60));
  }

  @Test
  @Order(6)
  void aProKeyGetsMoreThanAFreeKey() {
    // The demo's LLM stand-in: 200 tokens at once on the free plan, 2000 for keys starting pro-
    URI llm = memoryA.base().resolve("api/cdi/llm?tokens=50");
    int[] free = new int[600];
    int[] pro = new int[600];
    for (int i = 0; i < 6; i++) {
      free[Http.get(llm, "X-Api-Key", "it-free").statusCode()]++;
      pro[Http.get(llm, "X-Api-Key", "pro-it").statusCode()]++;
    }

    assertThat(free[200]).isEqualTo(4);
    assertThat(free[429]).isEqualTo(2);
    assertThat(pro[200]).isEqualTo(6);
  }

  @Test
  @Order(6)
  void successfulLoginsNeverLockOutWhileFailedOnesDo() {
    // The demo's login counts only 401s: 3 a minute per client address (here, 127.0.0.1)
    URI good = memoryB.base().resolve("api/login?user=ann&password=secret");
    URI bad = memoryB.base().resolve("api/login?user=ann&password=guess");

    for (int i = 0; i < 6; i++) {
      assertThat(login(good)).as("successful login %d", i).isEqualTo(200);
    }
    for (int i = 0; i < 3; i++) {
      assertThat(login(bad)).as("failed login %d", i).isEqualTo(401);
    }
    assertThat(login(good)).isEqualTo(429);
  }

  @Test
  @Order(6)
  void aThirdConcurrentExportIsRefusedUntilOneEnds() throws Exception {
    // The demo's export: 2 in flight per API key, held across both nodes through one Redis.
    // Given two exports of one key on node a, one of 3 s and one of 8 s
    URI onA = redisA.base().resolve("api/export?seconds=");
    URI probe = redisB.base().resolve("api/export?seconds=0");
    CompletableFuture<HttpResponse<String>> shortOne =
        CompletableFuture.supplyAsync(
            () -> Http.get(URI.create(onA + "3"), "X-Api-Key", "it-export"));
    CompletableFuture<HttpResponse<String>> longOne =
        CompletableFuture.supplyAsync(
            () -> Http.get(URI.create(onA + "8"), "X-Api-Key", "it-export"));

    // When a third arrives on node b while both are in flight, it is refused (the first probe waits
    // for both to be admitted, so that a probe never takes a permit one of them needs)
    Pause.millis(1_000);
    HttpResponse<String> third = null;
    long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    while (System.nanoTime() < deadline) {
      third = Http.get(probe, "X-Api-Key", "it-export");
      if (third.statusCode() == 429) {
        break;
      }
    }
    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(third.headers().firstValue("Retry-After")).hasValue("2");
    assertThat(third.headers().firstValue("RateLimit-Policy")).hasValue("\"export\";q=2");
    assertThat(Http.get(probe, "X-Api-Key", "it-other").statusCode()).isEqualTo(200);

    // Then once the short one ends, a third passes while the long one still runs
    assertThat(shortOne.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(longOne).isNotDone();
    assertThat(Http.get(probe, "X-Api-Key", "it-export").statusCode()).isEqualTo(200);
    assertThat(longOne.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
  }

  /**
   * The demo's outbound policy over Redis: 5 calls per 2 s per partner key, shared by both nodes.
   * The stand-in partner allows key gold 6 per 2 s window, so it never refuses gold: it sees at
   * most its limit. It allows key basic 3, so it refuses basic with a Retry-After, and then neither
   * node calls it with basic until that has passed. One client calls both nodes in turn, each call
   * after the answer to the last.
   */
  @Test
  @Order(6)
  void twoNodesCallThePartnerWithinItsLimitAndHoldOnItsRetryAfter() {
    Map<Integer, Integer> gold = callPartner("gold", Duration.ofSeconds(5));
    Map<Integer, Integer> basic = callPartner("basic", Duration.ofSeconds(6));

    List<String> lines =
        Http.get(redisA.base().resolve("api/cdi/partner/calls")).body().lines().toList();
    assertThat(lines.get(0)).isEqualTo("# epoch-millis key status retry-after-seconds");
    List<String[]> seen =
        lines.stream()
            .skip(1)
            .filter(line -> !line.isBlank())
            .map(line -> line.split(" "))
            .toList();
    // gold: at most 6 calls in each of the partner's 2 s windows, and never a refusal
    Map<Long, Long> goldPerWindow =
        seen.stream()
            .filter(call -> call[1].equals("gold"))
            .collect(
                java.util.stream.Collectors.groupingBy(
                    call -> Long.parseLong(call[0]) / 2000,
                    java.util.stream.Collectors.counting()));
    assertThat(goldPerWindow.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(6));
    assertThat(seen).noneMatch(call -> call[1].equals("gold") && call[2].equals("429"));
    assertThat(gold.get(200)).as("gold quotes").isGreaterThan(5);
    assertThat(gold.get(503)).as("gold calls held by the outbound policy").isPositive();
    // basic: after each refusal, no call until its Retry-After has passed, then calls resume
    List<String[]> basicCalls = seen.stream().filter(call -> call[1].equals("basic")).toList();
    List<Integer> refusals = new java.util.ArrayList<>();
    for (int i = 0; i < basicCalls.size(); i++) {
      if (basicCalls.get(i)[2].equals("429")) {
        refusals.add(i);
      }
    }
    assertThat(refusals).as("the partner refused basic").isNotEmpty();
    for (int i : refusals) {
      long refused = Long.parseLong(basicCalls.get(i)[0]);
      long retryAfter = Long.parseLong(basicCalls.get(i)[3]) * 1000;
      if (i + 1 < basicCalls.size()) {
        long next = Long.parseLong(basicCalls.get(i + 1)[0]);
        assertThat(next - refused)
            .as("ms from the refusal (Retry-After %s ms) to the next basic call", retryAfter)
            .isGreaterThanOrEqualTo(retryAfter - 100);
      }
    }
    assertThat(basicCalls.size())
        .as("basic calls after the first refusal")
        .isGreaterThan(refusals.get(0) + 1);
    assertThat(basic.get(503)).as("basic calls held").isPositive();
  }

  /** Calls the partner with {@code key} through both Redis nodes in turn; the demo's statuses. */
  private static Map<Integer, Integer> callPartner(String key, Duration length) {
    List<URI> nodes =
        List.of(
            redisA.base().resolve("api/cdi/partner-call?key=" + key),
            redisB.base().resolve("api/cdi/partner-call?key=" + key));
    Map<Integer, Integer> statuses = new java.util.TreeMap<>(Map.of(200, 0, 429, 0, 503, 0));
    long end = System.nanoTime() + length.toNanos();
    for (int i = 0; System.nanoTime() - end < 0; i++) {
      statuses.merge(Http.get(nodes.get(i % 2)).statusCode(), 1, Integer::sum);
      Pause.millis(10);
    }
    System.out.printf("the partner through two nodes, key %s: %s%n", key, statuses);
    assertThat(statuses.keySet()).containsOnly(200, 429, 503);
    return statuses;
  }

  /**
   * Input the demo cannot use is the client's mistake: a 400 with a problem body that names the
   * parameter and the value, never a 500, and never passed on to the limiter or the application.
   */
  @Test
  @Order(6)
  void badInputIsA400ProblemNamingTheParameter() {
    URI base = memoryA.base();
    SoftAssertions softly = new SoftAssertions();
    for (String[] bad :
        new String[][] {
          {"api/cdi/llm?tokens=1&used=-100000", "used", "-100000"},
          {"api/cdi/llm?tokens=1&used=ten", "used", "ten"},
          {"api/cdi/llm?tokens=1&used=", "used", "''"},
          {"api/cdi/llm?tokens=-5", "tokens", "-5"},
          {"api/cdi/llm?tokens=0", "tokens", "0"},
          {"api/cdi/llm?tokens=%2B5", "tokens", "+5"},
          {"api/cdi/llm?tokens=2147483648", "tokens", "2147483648"},
          {"api/cdi/llm?tokens=99999999999999999999", "tokens", "99999999999999999999"},
          {"api/cdi/llm?tokens=fifty", "tokens", "fifty"},
          {"api/export?seconds=-1", "seconds", "-1"},
          {"api/export?seconds=31", "seconds", "31"},
          {"api/export?seconds=soon", "seconds", "soon"},
        }) {
      HttpResponse<String> response = Http.get(base.resolve(bad[0]), "X-Api-Key", "it-bad-input");
      assertProblem(softly, bad[0], response, bad[1], bad[2]);
    }
    for (String[] bad :
        new String[][] {
          {"api/login?password=secret", "user", "missing"},
          {"api/login?user=&password=secret", "user", "''"},
          {"api/login?user=%20&password=secret", "user", "' '"},
          {"api/login?user=a%0Ab&password=secret", "user", "'a"},
          {"api/login?user=" + "a".repeat(65) + "&password=secret", "user", "aaaa"},
        }) {
      HttpResponse<String> response =
          Http.send(
              HttpRequest.newBuilder(base.resolve(bad[0]))
                  .POST(HttpRequest.BodyPublishers.noBody()));
      assertProblem(softly, bad[0], response, bad[1], bad[2]);
    }
    softly.assertAll();
  }

  /** A call with a bad parameter is refused before the limiter charges it anything. */
  @Test
  @Order(6)
  void aCallWithABadParameterIsNotCharged() {
    URI llm = memoryA.base().resolve("api/cdi/llm");

    // 200 tokens are the whole bucket: charged, the next call of 200 would be refused
    int bad =
        Http.get(URI.create(llm + "?tokens=200&used=-1"), "X-Api-Key", "it-uncharged").statusCode();
    int good = Http.get(URI.create(llm + "?tokens=200"), "X-Api-Key", "it-uncharged").statusCode();

    assertThat(bad).isEqualTo(400);
    assertThat(good).isEqualTo(200);
  }

  private static void assertProblem(
      SoftAssertions softly,
      String request,
      HttpResponse<String> response,
      String parameter,
      String value) {
    softly.assertThat(response.statusCode()).as("status of %s", request).isEqualTo(400);
    softly
        .assertThat(response.headers().firstValue("Content-Type"))
        .as("content type of %s", request)
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    softly
        .assertThat(response.body())
        .as("problem of %s", request)
        .contains("\"status\":400", "\"type\":", "\"title\":")
        .containsPattern(
            Pattern.compile("\"detail\":\"" + parameter + ": [^\"]*" + Pattern.quote(value)));
  }

  private static int login(URI uri) {
    return Http.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()))
        .statusCode();
  }

  /**
   * Both adapters' decisions on Payara's own {@code /metrics} (MicroProfile Metrics), counted once
   * each: the filter's {@code hello} and {@code @Limited("cdi-hello")}. Counted as deltas, since
   * the tests before sent requests to this node too.
   */
  @Test
  @Order(7)
  void theServersMetricsCountEveryRejectionAndReadinessListsTheLimiter() {
    Map<String, int[]> statuses = Map.of("hello", new int[600], "cdi-hello", new int[600]);
    String before = scrape(memoryA);

    for (int i = 0; i < 40; i++) {
      statuses.get("hello")[Http.get(memoryA.base().resolve("api/hello")).statusCode()]++;
    }
    for (int i = 0; i < 12; i++) {
      statuses.get("cdi-hello")[Http.get(memoryA.base().resolve("api/cdi/hello")).statusCode()]++;
    }
    String after = scrape(memoryA);

    for (var policy : statuses.entrySet()) {
      int rejected = policy.getValue()[429];
      int admitted = policy.getValue()[200];
      assertThat(rejected).as("429s of %s", policy.getKey()).isPositive();
      assertThat(admitted + rejected)
          .as("every answer of %s is a 200 or a 429", policy.getKey())
          .isEqualTo(policy.getKey().equals("hello") ? 40 : 12);
      assertThat(
              decisions(after, policy.getKey(), "rejected")
                  - decisions(before, policy.getKey(), "rejected"))
          .as(
              "limiter_decisions_total{policy=%s,outcome=rejected} after the burst",
              policy.getKey())
          .isEqualTo(rejected);
      assertThat(
              decisions(after, policy.getKey(), "admitted")
                  - decisions(before, policy.getKey(), "admitted"))
          .as(
              "limiter_decisions_total{policy=%s,outcome=admitted} after the burst",
              policy.getKey())
          .isEqualTo(admitted);
    }
    assertThat(Prometheus.sum(after, "limiter_memory_keys")).isPositive();

    HttpResponse<String> ready =
        Http.get(URI.create("http://127.0.0.1:" + memoryA.port() + "/health/ready"));
    assertThat(ready.statusCode()).isEqualTo(200);
    // The limiter check's own object: {"name":"limiter","status":"UP",...}, in either order.
    assertThat(ready.body())
        .containsPattern(
            Pattern.compile(
                "\\{[^{}]*\"name\"\\s*:\\s*\"limiter\"[^{}]*\"status\"\\s*:\\s*\"UP\"|"
                    + "\\{[^{}]*\"status\"\\s*:\\s*\"UP\"[^{}]*\"name\"\\s*:\\s*\"limiter\""));
  }

  private static String scrape(PayaraNode node) {
    HttpResponse<String> metrics =
        Http.get(
            URI.create("http://127.0.0.1:" + node.port() + "/metrics"), "Accept", "text/plain");
    assertThat(metrics.statusCode()).isEqualTo(200);
    return metrics.body();
  }

  private static long decisions(String scrape, String policy, String outcome) {
    return Math.round(
        Prometheus.sum(scrape, "limiter_decisions_total", "policy", policy, "outcome", outcome));
  }

  /**
   * The fewest one bucket admits: its capacity plus what refills while requests keep coming (the
   * dense part of the burst), less 1 for the fraction left at the end.
   */
  private static int fewest(Burst burst) {
    return CAPACITY + (int) Math.floor(RATE * burst.denseSeconds()) - 1;
  }

  /** The most a token bucket admits in t seconds: b + r t, plus 1 for the rounding of t. */
  private static int most(Burst burst) {
    return CAPACITY + (int) Math.ceil(RATE * burst.seconds()) + 1;
  }

  /**
   * The first requests to a node pay for class loading, JIT and connections: not part of a burst.
   */
  private static void warmUp(List<URI> targets) {
    for (URI target : targets) {
      for (int i = 0; i < 5; i++) {
        Http.get(target);
      }
    }
  }

  /** Capacity 20 at 10/s: an emptied bucket is full again after 2 s. */
  private static void awaitFullBuckets() {
    try {
      Thread.sleep(2_100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
