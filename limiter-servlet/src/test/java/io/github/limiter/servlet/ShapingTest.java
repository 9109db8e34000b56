package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Leaky-bucket shaping like nginx limit_req, over real HTTP, without a thread per waiting request. */
class ShapingTest {

  /** Rate 10/s, capacity 20: nginx {@code limit_req zone=... burst=20} at 10r/s. */
  private static Map<String, String> leaky(String... more) {
    return Props.with(Props.of(
        "limiter.policy.shaped.algorithm", "leaky-bucket",
        "limiter.policy.shaped.limits", "10/s burst=20",
        "limiter.route.shaped.pattern", "/shaped/*",
        "limiter.route.shaped.policies", "shaped"), more);
  }

  /** Sends {@code count} requests at once; returns the completion time of each in ms, in send order. */
  private static List<Long> burst(TestServer server, int count, List<HttpResponse<String>> responses) throws Exception {
    // Warm up the client and the container on an unshaped path, so the burst measures shaping only.
    for (int i = 0; i < 3; i++) {
      Http.get(server.uri("/warm-up"));
    }
    long start = System.nanoTime();
    List<CompletableFuture<Long>> done = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      done.add(Http.getAsync(server.uri("/shaped/x"), "X-Check-Charged", "shaped").thenApply(response -> {
        synchronized (responses) {
          responses.add(response);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      }));
    }
    List<Long> times = new ArrayList<>();
    for (CompletableFuture<Long> future : done) {
      times.add(future.get(20, TimeUnit.SECONDS));
    }
    return times;
  }

  /**
   * Pattern B: a burst of 21 is admitted whole and spread over about 2 s (one every 100 ms), while
   * the container has only 8 threads: waiting requests hold none.
   */
  @Test
  void burstOf21IsSpreadOverTwoSecondsWithoutHoldingThreads() throws Exception {
    try (TestServer server = TestServer.start(8, TestServer.context(TestServer.filter(leaky())))) {
      List<HttpResponse<String>> responses = new ArrayList<>();
      CompletableFuture<List<Long>> times = CompletableFuture.supplyAsync(() -> {
        try {
          return burst(server, 21, responses);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      // Mid-burst: most requests are waiting, yet the pool is idle and serves other paths at once.
      long start = System.nanoTime();
      Thread.sleep(600);
      // The fewest busy threads over 200 ms: a thread held per waiting request would keep all 8 busy
      // the whole time, while a stray moment of load (a JIT pause, a slow client) passes.
      int busy = Integer.MAX_VALUE;
      for (int sample = 0; sample < 5; sample++, Thread.sleep(50)) {
        busy = Math.min(busy, server.pool.getBusyThreads());
      }
      HttpResponse<String> probe = Http.get(server.uri("/unshaped"));
      long probeDone = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      List<Long> completed = times.get(30, TimeUnit.SECONDS);
      System.out.printf("shaping burst: busy threads mid-burst=%d of max %d, probe done at %d ms, completions=%s%n",
          busy, server.pool.getMaxThreads(), probeDone, completed);
      assertThat(probe.statusCode()).isEqualTo(200);
      // The probe was served while burst requests waited; its latency is only printed, as the
      // machine may be loaded. The proof is the pool: a thread per waiting request would show ~6 busy.
      assertThat(busy).as("busy container threads while ~14 requests wait").isLessThanOrEqualTo(3);
      assertThat(responses).hasSize(21).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
      List<Long> sorted = completed.stream().sorted().toList();
      // Relative times, so that a loaded machine's latency does not count: the first passes at once,
      // the last 20 intervals of 100 ms later, about one per 100 ms in between.
      assertThat(sorted.get(20) - sorted.get(0)).as("the last 20 intervals after the first").isBetween(1600L, 2700L);
      assertThat(sorted.get(10) - sorted.get(0)).isBetween(600L, 1600L);
      assertThat(sorted.get(20)).isLessThan(4000L);
      long resumed = responses.stream().filter(r -> r.body().contains("dispatch=ASYNC")).count();
      assertThat(resumed).isGreaterThanOrEqualTo(19);
      // The resumed request runs in the ChargedPolicies scope too.
      assertThat(responses).allSatisfy(r -> assertThat(r.body()).contains("charged=[shaped]"));
      assertThat(server.stats().counts("shaped").delayed()).isEqualTo(resumed);
      assertThat(server.stats().counts("shaped").admitted()).isEqualTo(21);
    }
  }

  @Test
  void nodelayPassesAtOnceButStillCounts() throws Exception {
    Map<String, String> props = leaky("limiter.policy.shaped.nodelay", "true", "limiter.policy.shaped.limits", "1/s burst=5");
    try (TestServer server = TestServer.start(8, TestServer.context(TestServer.filter(props)))) {
      List<HttpResponse<String>> responses = new ArrayList<>();
      List<Long> times = burst(server, 6, responses);
      assertThat(times).allSatisfy(t -> assertThat(t).isLessThan(1500));
      assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
      HttpResponse<String> rejected = Http.get(server.uri("/shaped/x"));
      assertThat(rejected.statusCode()).isEqualTo(429);
      assertThat(rejected.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(server.stats().counts("shaped").delayed()).isZero();
    }
  }

  /** nginx {@code delay=10}: the first 11 of a burst pass at once, the rest are spread. */
  @Test
  void delayAfterPassesTheFirstAtOnce() throws Exception {
    try (TestServer server = TestServer.start(8, TestServer.context(TestServer.filter(leaky("limiter.policy.shaped.delay-after", "10"))))) {
      List<HttpResponse<String>> responses = new ArrayList<>();
      List<Long> sorted = burst(server, 21, responses).stream().sorted().toList();
      assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
      assertThat(sorted.get(10) - sorted.get(0)).isLessThan(500);
      assertThat(sorted.get(20) - sorted.get(0)).isBetween(700L, 1800L);
    }
  }

  /** max-delay caps the wait; stopping the server releases held requests and the scheduler thread. */
  @Test
  void maxDelayCapsTheWaitAndDestroyReleasesEverything() throws Exception {
    Map<String, String> props = leaky("limiter.policy.shaped.limits", "1/1m burst=5", "limiter.policy.shaped.max-delay", "300ms");
    try (TestServer server = TestServer.start(8, TestServer.context(TestServer.filter(props)))) {
      List<HttpResponse<String>> responses = new ArrayList<>();
      List<Long> times = burst(server, 3, responses);
      assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
      assertThat(times).allSatisfy(t -> assertThat(t).isLessThan(1500));
      assertThat(times.stream().mapToLong(Long::longValue).max().orElseThrow()).isGreaterThanOrEqualTo(250);
      assertThat(shapingThreads()).isEqualTo(1);
    }
    assertThat(shapingThreads()).isZero();
  }

  /**
   * A filter before RateLimitFilter that is not async-supported rules out waiting without a thread:
   * the shaped request passes at once, still counted, and nothing fails.
   */
  @Test
  void withoutAsyncSupportShapedRequestsPassAtOnce() throws Exception {
    java.util.function.Consumer<jakarta.servlet.ServletContext> setup = ctx -> {
      jakarta.servlet.FilterRegistration.Dynamic sync =
          ctx.addFilter("sync", (jakarta.servlet.Filter) (request, response, chain) -> chain.doFilter(request, response));
      sync.setAsyncSupported(false);
      sync.addMappingForUrlPatterns(null, false, "/*");
      TestServer.filter(leaky()).accept(ctx);
    };
    List<String> warnings = warnings(() -> {
      try (TestServer server = TestServer.start(8, TestServer.context(setup))) {
        List<HttpResponse<String>> responses = new ArrayList<>();
        List<Long> times = burst(server, 10, responses);
        assertThat(responses).allSatisfy(r -> {
          assertThat(r.statusCode()).isEqualTo(200);
          assertThat(r.body()).contains("dispatch=REQUEST charged=[shaped]");
        });
        assertThat(times).allSatisfy(t -> assertThat(t).isLessThan(1500));
        assertThat(server.stats().counts("shaped").admitted()).isEqualTo(10);
      }
    });

    assertThat(warnings).singleElement().asString()
        .contains("RateLimitFilter 'limiter' lets a leaky-bucket request on /app/shaped/x pass without its shaping wait")
        .contains("not async-supported");
  }

  /**
   * The filter itself added by code without async support: the initializer cannot see that, so the
   * requests pass at once, and the warning names the filter first (issue 17.5).
   */
  @Test
  void aFilterAddedByCodeWithoutAsyncSupportWarnsNamingItself() throws Exception {
    java.util.function.Consumer<jakarta.servlet.ServletContext> setup = ctx -> {
      jakarta.servlet.FilterRegistration.Dynamic registration = ctx.addFilter("sync-limiter", RateLimitFilter.class);
      registration.setAsyncSupported(false);
      leaky().forEach(registration::setInitParameter);
      registration.addMappingForUrlPatterns(null, false, "/*");
    };
    List<String> warnings = warnings(() -> {
      try (TestServer server = TestServer.start(8, TestServer.context(setup))) {
        List<HttpResponse<String>> responses = new ArrayList<>();
        List<Long> times = burst(server, 5, responses);
        assertThat(responses).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
        assertThat(times).allSatisfy(t -> assertThat(t).isLessThan(1500));
      }
    });

    assertThat(warnings).singleElement().asString()
        .contains("RateLimitFilter 'sync-limiter' lets a leaky-bucket request")
        .contains("The filter itself, a filter mapped before it, or on some servers the servlet is not")
        .doesNotContain("async already");
  }

  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  /** The warnings RateLimitFilter logs while {@code body} runs. */
  private static List<String> warnings(Body body) throws Exception {
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(RateLimitFilter.class.getName());
    List<String> warnings = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.logging.Handler handler = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord record) {
        if (record.getLevel() == java.util.logging.Level.WARNING) {
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
        .filter(t -> t.isAlive() && t.getName().startsWith("limiter-shaping-")).count();
  }
}
