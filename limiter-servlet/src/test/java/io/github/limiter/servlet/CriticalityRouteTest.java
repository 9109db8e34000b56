package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.servlet.ConcurrencyLimitTest.HoldServlet;
import jakarta.servlet.ServletContainerInitializer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * Criticality over real HTTP: two routes share one node-wide concurrency limit, one sheddable and
 * one critical. Under overload the sheddable route is refused with a 503 while the critical one
 * still gets in, for a fixed limit and for an adaptive one. Requests are held on latches, never on
 * time.
 */
class CriticalityRouteTest {

  private static TestServer server(String limits, String... more) throws Exception {
    List<String> pairs =
        new ArrayList<>(
            List.of(
                "limiter.policy.pool.algorithm", "concurrency",
                "limiter.policy.pool.limits", limits,
                "limiter.policy.pool.retry-after", "2s",
                "limiter.route.shed.pattern", "/shed/*",
                "limiter.route.shed.policies", "pool",
                "limiter.route.shed.criticality", "sheddable",
                "limiter.route.vital.pattern", "/vital/*",
                "limiter.route.vital.policies", "pool",
                "limiter.route.vital.criticality", "critical"));
    pairs.addAll(List.of(more));
    Map<String, String> params = Props.of(pairs.toArray(String[]::new));
    ServletContextHandler context =
        new ServletContextHandler(TestServer.CONTEXT, ServletContextHandler.SECURITY);
    ServletHolder servlet = new ServletHolder("hold", HoldServlet.class);
    servlet.setAsyncSupported(true);
    context.addServlet(servlet, "/*");
    context.addServletContainerInitializer(
        (ServletContainerInitializer) (classes, ctx) -> TestServer.filter(params).accept(ctx));
    return TestServer.start(context);
  }

  /** A request to {@code path} held at {@code gate}, once it is in the application. */
  private static CompletableFuture<HttpResponse<String>> hold(
      TestServer server, String path, String gate) throws Exception {
    CompletableFuture<HttpResponse<String>> response =
        Http.getAsync(server.uri(path), "X-Mode", "sync", "X-Gate", gate);
    assertThat(ConcurrencyLimitTest.ENTERED.tryAcquire(10, TimeUnit.SECONDS))
        .as("%s entered", gate)
        .isTrue();
    return response;
  }

  private static HttpResponse<String> refused(TestServer server, String path) throws Exception {
    HttpResponse<String> response =
        Http.get(server.uri(path), "X-Mode", "sync", "X-Gate", "never-held");
    assertThat(response.statusCode()).as("%s refused", path).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
    assertThat(response.body())
        .contains("urn:limiter:problem:overloaded")
        .contains("'pool'")
        .contains("criticality");
    return response;
  }

  private static void openAll(List<CompletableFuture<HttpResponse<String>>> held, String... gates)
      throws Exception {
    for (String gate : gates) {
      ConcurrencyLimitTest.GATES.computeIfAbsent(gate, g -> new CountDownLatch(1)).countDown();
    }
    for (var response : held) {
      assertThat(response.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aFixedLimitRefusesTheSheddableRouteWhileTheCriticalRouteTakesItsShare() throws Exception {
    // Given 4 in flight for the node, a quarter kept for critical requests
    try (TestServer server =
        server(
            "4",
            "limiter.policy.pool.key",
            "constant",
            "limiter.policy.pool.critical-share",
            "0.25")) {
      // When two sheddable requests are in flight, a third is refused as an overload
      var first = hold(server, "/shed/a", "crit-f1");
      var second = hold(server, "/shed/b", "crit-f2");
      refused(server, "/shed/c");
      // Then critical requests still get the two permits left
      var third = hold(server, "/vital/a", "crit-f3");
      var fourth = hold(server, "/vital/b", "crit-f4");
      // And beyond the limit itself, a critical request gets the fixed limit's 429
      assertThat(Http.get(server.uri("/vital/c"), "X-Mode", "sync", "X-Gate", "never").statusCode())
          .isEqualTo(429);
      openAll(List.of(first, second, third, fourth), "crit-f1", "crit-f2", "crit-f3", "crit-f4");
    }
  }

  @Test
  void anAdaptiveLimitRefusesTheSheddableRouteFirst() throws Exception {
    // Given an adaptive limit while its start-up probe holds it at 3, with the critical reserve
    // on top: the adaptive default critical-share (0.2) of the initial 20, so 4
    try (TestServer server = server("adaptive")) {
      // When three sheddable requests are in flight, the next is refused: the probe's 3 are taken
      List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
      List<String> gates = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        gates.add("crit-s" + i);
        held.add(hold(server, "/shed/" + i, gates.get(i)));
      }
      refused(server, "/shed/next");
      // Then critical requests take the 4 reserved for them, and the next finds the limit full
      for (int i = 0; i < 4; i++) {
        gates.add("crit-v" + i);
        held.add(hold(server, "/vital/" + i, gates.get(gates.size() - 1)));
      }
      refused(server, "/vital/next");
      openAll(held, gates.toArray(String[]::new));
    }
  }
}
