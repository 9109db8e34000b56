package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A concurrency policy of one request in flight under the Jakarta REST filters: the permit is taken
 * while a request runs and given back when its response is filtered, whether the resource answered,
 * threw, or answered later on another thread.
 */
class ConcurrencyTest {

  private static TestApp app;

  @BeforeAll
  static void start() throws Exception {
    app =
        TestApp.jersey(
            TestApp.resources(
                TestApp.props(
                    "limiter.policy.inflight.algorithm", "concurrency",
                    "limiter.policy.inflight.limits", "1",
                    "limiter.policy.inflight.key", "header:X-Client",
                    "limiter.policy.inflight.retry-after", "3s",
                    "limiter.route.inflight.pattern", "/*",
                    "limiter.route.inflight.policies", "inflight")));
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  void aSecondRequestWhileOneRunsIsRefusedAndTheNextAfterItPasses() throws Exception {
    holdingOne("/slow", "sync");
  }

  @Test
  void anAsynchronousResourceGivesItsPermitBackWhenItAnswers() throws Exception {
    holdingOne("/async", "async");
  }

  @Test
  void aResourceThatThrowsGivesItsPermitBack() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertThat(app.get("/boom", "X-Client", "boom").statusCode()).isEqualTo(500);
    }
    assertThat(app.get("/items", "X-Client", "boom").statusCode()).isEqualTo(200);
  }

  private static void holdingOne(String path, String client) throws Exception {
    Resources.gate = new CountDownLatch(1);
    Resources.entered = new CountDownLatch(1);
    CompletableFuture<HttpResponse<String>> first =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return app.get(path, "X-Client", client);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    try {
      assertThat(Resources.entered.await(30, TimeUnit.SECONDS)).isTrue();
      HttpResponse<String> second = app.get("/items", "X-Client", client);
      assertThat(second.statusCode()).isEqualTo(429);
      assertThat(second.headers().firstValue("Retry-After")).hasValue("3");
      assertThat(second.headers().firstValue("RateLimit-Policy")).hasValue("\"inflight\";q=1");
      assertThat(app.get("/items", "X-Client", "someone-else").statusCode()).isEqualTo(200);
    } finally {
      Resources.gate.countDown();
    }
    assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(app.get("/items", "X-Client", client).statusCode()).isEqualTo(200);
    assertThat(app.get("/items", "X-Client", client).statusCode()).isEqualTo(200);
  }
}
