package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.Test;

/**
 * A concurrency policy over real HTTP: at most two requests in flight per API key. A permit is
 * taken when the filter admits a request and given back when it ends, however it ends: a response,
 * an async completion, an exception or an async timeout.
 */
class ConcurrencyLimitTest {

  /** Gates that held requests wait on, by name, and a permit for each request that got in. */
  static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

  static final Semaphore ENTERED = new Semaphore(0);

  /**
   * Answers after waiting for gate {@code X-Gate}, as {@code X-Mode} says: {@code sync} (200),
   * {@code async} (200 from another thread after an async start), {@code throw} (a 500 by an
   * exception), {@code timeout} (an async start never completed, with a 200 ms timeout); without a
   * mode, 200 at once.
   */
  public static class HoldServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) {
      String mode = request.getHeader("X-Mode");
      if (mode == null) {
        return;
      }
      CountDownLatch gate =
          GATES.computeIfAbsent(request.getHeader("X-Gate"), g -> new CountDownLatch(1));
      ENTERED.release();
      switch (mode) {
        case "sync" -> await(gate);
        case "throw" -> {
          await(gate);
          throw new IllegalStateException("the export failed");
        }
        case "async" -> {
          AsyncContext async = request.startAsync();
          async.setTimeout(30_000);
          async.start(
              () -> {
                await(gate);
                async.complete();
              });
        }
        case "timeout" -> request.startAsync().setTimeout(200);
        default -> throw new IllegalArgumentException(mode);
      }
    }

    private static void await(CountDownLatch gate) {
      try {
        if (!gate.await(20, TimeUnit.SECONDS)) {
          throw new IllegalStateException("gate never opened");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static TestServer server() throws Exception {
    Map<String, String> params =
        Props.of(
            "limiter.policy.export.algorithm", "concurrency",
            "limiter.policy.export.limits", "2",
            "limiter.policy.export.key", "header:X-Key",
            "limiter.policy.export.retry-after", "3s",
            "limiter.route.export.pattern", "/*",
            "limiter.route.export.policies", "export");
    ServletContextHandler context =
        new ServletContextHandler(TestServer.CONTEXT, ServletContextHandler.SECURITY);
    ServletHolder servlet = new ServletHolder("hold", HoldServlet.class);
    servlet.setAsyncSupported(true);
    context.addServlet(servlet, "/*");
    context.addServletContainerInitializer(
        (ServletContainerInitializer) (classes, ctx) -> TestServer.filter(params).accept(ctx));
    return TestServer.start(context);
  }

  /** Starts a request held at {@code gate} and waits until it is in the application. */
  private static CompletableFuture<HttpResponse<String>> hold(
      TestServer server, String key, String mode, String gate) throws Exception {
    CompletableFuture<HttpResponse<String>> response =
        Http.getAsync(server.uri("/export"), "X-Key", key, "X-Mode", mode, "X-Gate", gate);
    assertThat(ENTERED.tryAcquire(10, TimeUnit.SECONDS)).as("%s entered", gate).isTrue();
    return response;
  }

  private static HttpResponse<String> now(TestServer server, String key) throws Exception {
    return Http.get(server.uri("/export"), "X-Key", key);
  }

  private static void open(String gate) {
    GATES.computeIfAbsent(gate, g -> new CountDownLatch(1)).countDown();
  }

  /** Checks that both of {@code key}'s permits are free: two fit at once and a third does not. */
  private static void bothPermitsFree(TestServer server, String key) throws Exception {
    var x = hold(server, key, "sync", key + "-x");
    var y = hold(server, key, "sync", key + "-y");
    assertThat(now(server, key).statusCode()).isEqualTo(429);
    open(key + "-x");
    open(key + "-y");
    assertThat(x.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(y.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
  }

  @Test
  void aThirdRequestInFlightIsRefusedAndEachWayOfEndingGivesThePermitBack() throws Exception {
    try (TestServer server = server()) {
      // Given two exports in flight for one key, one synchronous and one async
      var sync = hold(server, "acme", "sync", "s1");
      var async = hold(server, "acme", "async", "a1");

      // Then a third is refused with the configured Retry-After, while another key passes
      HttpResponse<String> third = now(server, "acme");
      assertThat(third.statusCode()).isEqualTo(429);
      assertThat(third.headers().firstValue("Retry-After")).hasValue("3");
      assertThat(third.headers().firstValue("RateLimit-Policy")).hasValue("\"export\";q=2");
      assertThat(now(server, "other").statusCode()).isEqualTo(200);

      // When the synchronous one ends, one more fits: one that fails with an exception
      open("s1");
      assertThat(sync.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      var failing = hold(server, "acme", "throw", "t1");
      assertThat(now(server, "acme").statusCode()).isEqualTo(429);

      // When it fails, its permit comes back too
      open("t1");
      assertThat(failing.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(500);
      var again = hold(server, "acme", "sync", "s2");
      assertThat(now(server, "acme").statusCode()).isEqualTo(429);

      // When the async one completes and the other ends, both permits are back
      open("a1");
      open("s2");
      assertThat(async.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      assertThat(again.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      bothPermitsFree(server, "acme");
    }
  }

  @Test
  void anAsyncRequestThatTimesOutGivesItsPermitBack() throws Exception {
    try (TestServer server = server()) {
      // Given two async exports that are never completed and time out
      var first = hold(server, "initech", "timeout", "unused1");
      var second = hold(server, "initech", "timeout", "unused2");
      assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isGreaterThanOrEqualTo(500);
      assertThat(second.get(10, TimeUnit.SECONDS).statusCode()).isGreaterThanOrEqualTo(500);

      // Then both permits are back
      bothPermitsFree(server, "initech");
    }
  }
}
