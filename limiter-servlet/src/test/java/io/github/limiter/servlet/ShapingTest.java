package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.redis.Await;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Leaky-bucket shaping like nginx limit_req, over real HTTP, without a thread per waiting request.
 * The store and the shaping scheduler run on {@link ManualTime}: a held request departs when the
 * test moves the clock, so nothing here waits on the algorithm's time.
 */
class ShapingTest {

  /** Rate 10/s, capacity 20: nginx {@code limit_req zone=... burst=20} at 10r/s. */
  private static Map<String, String> leaky(String... more) {
    return Props.with(
        Props.of(
            "limiter.policy.shaped.algorithm", "leaky-bucket",
            "limiter.policy.shaped.limits", "10/s burst=20",
            "limiter.route.shaped.pattern", "/shaped/*",
            "limiter.route.shaped.policies", "shaped"),
        more);
  }

  /**
   * Sends {@code count} requests at once, and waits until the filter has decided them all. The last
   * one comes a nanosecond later, as on a real clock: the bucket holds burst + 1, since the first
   * request is already leaking when the last arrives.
   */
  private static List<CompletableFuture<HttpResponse<String>>> burst(
      TestServer server, int count, ManualTime time) {
    List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      if (i == count - 1) {
        int before = i;
        awaitEvent(
            "the first " + before + " decided",
            () -> server.stats().counts("shaped").admitted() == before,
            server);
        if (time != null) {
          time.advance(Duration.ofNanos(1));
        }
      }
      sent.add(Http.getAsync(server.uri("/shaped/x"), "X-Check-Charged", "shaped"));
    }
    awaitEvent(
        "all " + count + " decided",
        () -> server.stats().counts("shaped").admitted() == count,
        server);
    return sent;
  }

  private static long done(List<CompletableFuture<HttpResponse<String>>> sent) {
    return sent.stream().filter(CompletableFuture::isDone).count();
  }

  /**
   * Waits for something the test caused to happen (a response over HTTP): never for the algorithm's
   * time.
   */
  private static void awaitEvent(String what, BooleanSupplier happened) {
    awaitEvent(what, happened, null);
  }

  private static void awaitEvent(String what, BooleanSupplier happened, TestServer server) {
    Await.until(
        () -> "waiting for " + what + (server == null ? "" : " " + server.stats()),
        Duration.ofSeconds(20),
        happened);
  }

  /**
   * Moves the clock one {@code step} at a time: each step lets exactly one more held request go,
   * until none is held; returns the steps taken.
   */
  private static int departOneByOne(
      ManualTime time, List<CompletableFuture<HttpResponse<String>>> sent, Duration step) {
    int steps = 0;
    while (time.pending() > 0) {
      long before = done(sent);
      int held = time.pending();
      time.advance(step);
      steps++;
      assertThat(time.pending()).as("held after step " + steps).isEqualTo(held - 1);
      awaitEvent("the request due at step " + steps, () -> done(sent) == before + 1);
    }
    return steps;
  }

  /**
   * Pattern B: a burst of 21 is admitted whole and spread over 2 s (one every 100 ms), while the
   * container has only 8 threads: waiting requests hold none.
   */
  @Test
  void burstOf21IsSpreadOverTwoSecondsWithoutHoldingThreads() throws Exception {
    try (ManualTime time = new ManualTime();
        TestServer server = TestServer.start(8, TestServer.context(time.filter(leaky())))) {
      List<CompletableFuture<HttpResponse<String>>> sent = burst(server, 21, time);
      // The first passes at once; the other 20 wait for their departures, 100 ms apart.
      awaitEvent("the first response", () -> done(sent) == 1);
      // Counted as decided a moment before the filter holds it: wait for the holds, under load too.
      awaitEvent("20 requests held", () -> time.pending() == 20);
      // Mid-burst the pool is idle: a thread held per waiting request would keep all 8 busy for
      // good.
      awaitEvent("an idle pool while 20 requests wait", () -> server.pool.getBusyThreads() <= 3);
      assertThat(Http.get(server.uri("/unshaped")).statusCode()).isEqualTo(200);

      assertThat(departOneByOne(time, sent, Duration.ofMillis(100)))
          .as("100 ms steps to the last departure")
          .isEqualTo(20);

      List<HttpResponse<String>> responses = new ArrayList<>();
      for (CompletableFuture<HttpResponse<String>> response : sent) {
        responses.add(response.get(20, TimeUnit.SECONDS));
      }
      assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
      assertThat(responses.stream().filter(r -> r.body().contains("dispatch=ASYNC")).count())
          .isEqualTo(20);
      // The resumed request runs in the ChargedPolicies scope too.
      assertThat(responses).allSatisfy(r -> assertThat(r.body()).contains("charged=[shaped]"));
      assertThat(server.stats().counts("shaped").delayed()).isEqualTo(20);
      assertThat(server.stats().counts("shaped").admitted()).isEqualTo(21);
    }
  }

  @Test
  void nodelayPassesAtOnceButStillCounts() throws Exception {
    Map<String, String> props =
        leaky(
            "limiter.policy.shaped.nodelay", "true", "limiter.policy.shaped.limits", "1/s burst=5");
    try (ManualTime time = new ManualTime();
        TestServer server = TestServer.start(8, TestServer.context(time.filter(props)))) {
      List<CompletableFuture<HttpResponse<String>>> sent = burst(server, 6, time);
      for (CompletableFuture<HttpResponse<String>> response : sent) {
        assertThat(response.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      }
      assertThat(time.pending()).isZero();
      HttpResponse<String> rejected = Http.get(server.uri("/shaped/x"));
      assertThat(rejected.statusCode()).isEqualTo(429);
      assertThat(rejected.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(server.stats().counts("shaped").delayed()).isZero();
    }
  }

  /** nginx {@code delay=10}: the first 11 of a burst pass at once, the rest are spread. */
  @Test
  void delayAfterPassesTheFirstAtOnce() throws Exception {
    try (ManualTime time = new ManualTime();
        TestServer server =
            TestServer.start(
                8,
                TestServer.context(
                    time.filter(leaky("limiter.policy.shaped.delay-after", "10"))))) {
      List<CompletableFuture<HttpResponse<String>>> sent = burst(server, 21, time);
      awaitEvent("the requests that pass at once", () -> done(sent) == 11);
      awaitEvent("10 requests held", () -> time.pending() == 10);
      assertThat(departOneByOne(time, sent, Duration.ofMillis(100))).isEqualTo(10);
      for (CompletableFuture<HttpResponse<String>> response : sent) {
        assertThat(response.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      }
    }
  }

  /** max-delay caps the wait. */
  @Test
  void maxDelayCapsTheWait() throws Exception {
    Map<String, String> props =
        leaky(
            "limiter.policy.shaped.limits",
            "1/1m burst=5",
            "limiter.policy.shaped.max-delay",
            "300ms");
    try (ManualTime time = new ManualTime();
        TestServer server = TestServer.start(8, TestServer.context(time.filter(props)))) {
      List<CompletableFuture<HttpResponse<String>>> sent = burst(server, 3, time);
      awaitEvent("the first response", () -> done(sent) == 1);
      awaitEvent("2 requests held", () -> time.pending() == 2);
      // Without the cap they would wait one and two minutes.
      time.advance(Duration.ofMillis(299));
      assertThat(time.pending()).isEqualTo(2);
      time.advance(Duration.ofMillis(1));
      assertThat(time.pending()).isZero();
      for (CompletableFuture<HttpResponse<String>> response : sent) {
        assertThat(response.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      }
    }
  }

  /**
   * Stopping the server releases held requests and the real scheduler's thread, without waiting for
   * their departures.
   */
  @Test
  void destroyReleasesEverything() throws Exception {
    Map<String, String> props =
        leaky(
            "limiter.policy.shaped.limits",
            "1/1m burst=5",
            "limiter.policy.shaped.max-delay",
            "5m");
    List<CompletableFuture<HttpResponse<String>>> sent;
    try (TestServer server = TestServer.start(8, TestServer.context(TestServer.filter(props)))) {
      sent = burst(server, 3, null);
      awaitEvent("the first response", () -> done(sent) == 1);
      assertThat(server.stats().counts("shaped").delayed()).isEqualTo(2);
      awaitEvent("the scheduler's one thread", () -> shapingThreads() == 1);
    }
    awaitEvent("the held requests released by the stop", () -> done(sent) == 3);
    awaitEvent("the scheduler's thread to end", () -> shapingThreads() == 0);
  }

  /**
   * A filter before RateLimitFilter that is not async-supported rules out waiting without a thread:
   * the shaped request passes at once, still counted, and nothing fails.
   */
  @Test
  void withoutAsyncSupportShapedRequestsPassAtOnce() throws Exception {
    List<String> warnings =
        warnings(
            () -> {
              try (ManualTime time = new ManualTime()) {
                Consumer<jakarta.servlet.ServletContext> setup =
                    ctx -> {
                      jakarta.servlet.FilterRegistration.Dynamic sync =
                          ctx.addFilter(
                              "sync",
                              (jakarta.servlet.Filter)
                                  (request, response, chain) -> chain.doFilter(request, response));
                      sync.setAsyncSupported(false);
                      sync.addMappingForUrlPatterns(null, false, "/*");
                      time.filter(leaky()).accept(ctx);
                    };
                try (TestServer server = TestServer.start(8, TestServer.context(setup))) {
                  List<CompletableFuture<HttpResponse<String>>> sent = burst(server, 10, time);
                  for (CompletableFuture<HttpResponse<String>> response : sent) {
                    HttpResponse<String> r = response.get(20, TimeUnit.SECONDS);
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(r.body()).contains("dispatch=REQUEST charged=[shaped]");
                  }
                  assertThat(time.pending()).isZero();
                  assertThat(server.stats().counts("shaped").admitted()).isEqualTo(10);
                }
              }
            });

    assertThat(warnings)
        .singleElement()
        .asString()
        .contains(
            "RateLimitFilter 'limiter' lets a leaky-bucket request on '/app/shaped/x' pass without its shaping wait")
        .contains("not async-supported");
  }

  /**
   * The filter itself added by code without async support: the initializer cannot see that, so the
   * requests pass without their wait, and the warning names the filter first (issue 17.5).
   */
  @Test
  void aFilterAddedByCodeWithoutAsyncSupportWarnsNamingItself() throws Exception {
    Consumer<jakarta.servlet.ServletContext> setup =
        ctx -> {
          jakarta.servlet.FilterRegistration.Dynamic registration =
              ctx.addFilter("sync-limiter", RateLimitFilter.class);
          registration.setAsyncSupported(false);
          leaky().forEach(registration::setInitParameter);
          registration.addMappingForUrlPatterns(null, false, "/*");
        };
    List<String> warnings =
        warnings(
            () -> {
              try (TestServer server = TestServer.start(8, TestServer.context(setup))) {
                List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                  sent.add(Http.getAsync(server.uri("/shaped/x")));
                }
                for (CompletableFuture<HttpResponse<String>> response : sent) {
                  assertThat(response.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
                }
              }
            });

    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("RateLimitFilter 'sync-limiter' lets a leaky-bucket request")
        .contains(
            "The filter itself, a filter mapped before it, or on some servers the servlet is not")
        .doesNotContain("async already");
  }

  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  /** The warnings RateLimitFilter logs while {@code body} runs. */
  private static List<String> warnings(Body body) throws Exception {
    Logger logger = Logger.getLogger(RateLimitFilter.class.getName());
    List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (record.getLevel() == Level.WARNING) {
              warnings.add(record.getMessage());
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(handler);
    try {
      body.run();
    } finally {
      logger.removeHandler(handler);
    }
    return warnings;
  }

  private static long shapingThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("limiter-shaping-"))
        .count();
  }
}
