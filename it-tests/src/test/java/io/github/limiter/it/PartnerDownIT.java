package io.github.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PayaraNode;
import io.github.limiter.it.harness.Settings;
import io.github.limiter.tck.redis.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The demo's partner call when the partner cannot be reached, on two Payara Micro nodes over one
 * Redis, the outbound policy set to 2 calls in flight per key: each call is answered 502 (refused)
 * or 504 (timed out) with a problem body, no call keeps its permit, so the partner is called again
 * as soon as it is back, and no stack trace is logged. The partner is a stub on a loopback port
 * that this test opens and closes; the nodes keep their outbound holds for 5 minutes at most
 * ({@code max-call-time}), longer than this test: only the clients' own ends give permits back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PartnerDownIT {

  private static final int PARTNER_PORT = RedisServer.freePort();

  private static RedisServer redis;
  private static PayaraNode nodeA;
  private static PayaraNode nodeB;
  private HttpServer partner;

  @BeforeAll
  static void startNodes() {
    Path war = Path.of(Settings.required("it.demo.war"));
    redis = RedisServer.start("partner-down");
    Map<String, String> env =
        Map.of(
            "LIMITER_STORE", "redis",
            "LIMITER_REDIS_URL", redis.url(),
            "LIMITER_REDIS_CONCURRENCY_HOLD", "3s",
            "LIMITER_OUTBOUND_PARTNER_ALGORITHM", "concurrency",
            "LIMITER_OUTBOUND_PARTNER_LIMITS", "2",
            "DEMO_PARTNER_URL", "http://127.0.0.1:" + PARTNER_PORT + "/partner");
    nodeA = PayaraNode.start("partner-down-a", war, "/demo", env);
    nodeB = PayaraNode.start("partner-down-b", war, "/demo", env);
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

  @AfterEach
  void stopPartner() {
    if (partner != null) {
      partner.stop(0);
      partner = null;
    }
  }

  private static List<PayaraNode> nodes() {
    return Stream.of(nodeA, nodeB).filter(n -> n != null).toList();
  }

  @Test
  @Order(1)
  void aRefusedConnectionIsA502ProblemAndKeepsNoPermit() {
    // Given the partner down: nothing listens on its port
    // When both nodes call it three times each, more than the 2 permits of key gold
    for (int i = 0; i < 6; i++) {
      HttpResponse<String> answer = call(i % 2 == 0 ? nodeA : nodeB);

      // Then each is a 502 with a problem body, never the policy's 503
      assertProblem(answer, 502, "refused the connection");
    }

    // And once the partner is back, both nodes call it at once
    partner = partner(Duration.ZERO);
    assertThat(call(nodeA).statusCode()).isEqualTo(200);
    assertThat(call(nodeB).statusCode()).isEqualTo(200);
    assertThat(call(nodeA).statusCode()).isEqualTo(200);
  }

  @Test
  @Order(2)
  void aPartnerThatDoesNotAnswerInTimeIsA504ProblemAndKeepsNoPermit() throws Exception {
    // Given a partner that answers after the demo's read timeout (5 s)
    partner = partner(Duration.ofSeconds(8));

    // When both nodes call it at once, taking both permits
    CompletableFuture<HttpResponse<String>> onA = CompletableFuture.supplyAsync(() -> call(nodeA));
    CompletableFuture<HttpResponse<String>> onB = CompletableFuture.supplyAsync(() -> call(nodeB));

    // Then each times out into a 504 problem
    assertProblem(onA.get(), 504, "did not answer within");
    assertProblem(onB.get(), 504, "did not answer within");

    // And both permits are back once the partner answers in time again
    partner.stop(0);
    partner = partner(Duration.ZERO);
    assertThat(call(nodeB).statusCode()).isEqualTo(200);
    assertThat(call(nodeA).statusCode()).isEqualTo(200);
    assertThat(call(nodeB).statusCode()).isEqualTo(200);
  }

  @Test
  @Order(3)
  void anExpectedFailureLogsOneLineWithoutAStackTrace() {
    Pattern stackTrace =
        Pattern.compile("(ConnectException|SocketTimeoutException)[^\\n]*\\R\\s+at ");
    for (PayaraNode node : nodes()) {
      String log = node.logText();
      assertThat(log).contains("partner-call: 502", "partner-call: 504");
      assertThat(stackTrace.matcher(log).find()).as("a stack trace in %s", node.base()).isFalse();
    }
  }

  private static HttpResponse<String> call(PayaraNode node) {
    return Http.get(node.base().resolve("api/cdi/partner-call?key=gold"));
  }

  private static void assertProblem(HttpResponse<String> answer, int status, String detail) {
    assertThat(answer.statusCode()).as("status of %s", answer.body()).isEqualTo(status);
    assertThat(answer.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(answer.body()).contains("\"status\":" + status, "\"title\":", detail);
  }

  /** The stand-in partner on its port: a quote for {@code /partner/quote}, after {@code delay}. */
  private static HttpServer partner(Duration delay) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", PARTNER_PORT), 16);
      server.createContext(
          "/partner/quote",
          exchange -> {
            try {
              Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            byte[] quote = "quote: 42.00\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, quote.length);
            exchange.getResponseBody().write(quote);
            exchange.close();
          });
      server.setExecutor(
          Executors.newCachedThreadPool(
              task -> {
                Thread thread = new Thread(task, "partner-stub");
                thread.setDaemon(true);
                return thread;
              }));
      server.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
