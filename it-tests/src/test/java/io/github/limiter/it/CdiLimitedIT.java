package io.github.limiter.it;

import static io.github.limiter.it.harness.RateLimitAssertions.assertAdmitted;
import static io.github.limiter.it.harness.RateLimitAssertions.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.cdi.GreetServlet;
import io.github.limiter.it.app.cdi.GreetingService;
import io.github.limiter.it.app.cdi.ItemsResource;
import io.github.limiter.it.app.cdi.RestApplication;
import io.github.limiter.it.app.servlet.AnnotatedRateLimitFilter;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.OneBudget;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import io.github.limiter.it.harness.ServerLog;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @Limited} on a CDI bean called from a servlet, and on a JAX-RS resource whose rejections
 * the Limiter's ExceptionMapper writes; policies from META-INF/microprofile-config.properties
 * (src/test/webapps/cdi-limited). The filter there also shapes in front of the request-scoped
 * resource.
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class CdiLimitedIT {

  @Deployment
  static WebArchive app() {
    return ShrinkWrap.create(WebArchive.class, "cdi-limited.war")
        .addClasses(
            GreetingService.class,
            GreetServlet.class,
            RestApplication.class,
            ItemsResource.class,
            AnnotatedRateLimitFilter.class)
        .addAsResource(
            new File("src/test/webapps/cdi-limited/META-INF/microprofile-config.properties"),
            "META-INF/microprofile-config.properties");
  }

  @ArquillianResource URL url;

  private URI uri(String path) {
    return Deployed.base(url).resolve(path);
  }

  /** Issue 36.2: the start of @Limited says what it read, in one INFO line. */
  @Test
  void theStartLogsWhatLimitedRead() {
    // @Limited's runtime starts with the first call at the latest
    assertThat(Http.get(uri("greet?user=start-line")).statusCode()).isEqualTo(200);

    String line = ServerLog.line("Limiter started for @Limited: ");

    assertThat(line)
        .contains("bean: fixed-window 2/")
        .contains("rest: token-bucket 3/")
        .contains("by key header:X-Client (if missing: remote-address)")
        .contains(GreetingService.class.getName() + ".greet(String)")
        .contains(", store memory, metrics ");
  }

  @Test
  void aLimitedBeanCalledFromAServletRejectsOverItsLimit() {
    URI alice = uri("greet?user=alice");
    HttpResponse<String> first = Http.get(alice);
    HttpResponse<String> second = Http.get(alice);
    HttpResponse<String> third = Http.get(alice);

    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).isEqualTo("hello alice");
    assertThat(second.statusCode()).isEqualTo(200);
    assertRejected(third, "bean", 60);
  }

  @Test
  void aLimitedBeanKeysByItsParameter() {
    Http.get(uri("greet?user=carol"));
    Http.get(uri("greet?user=carol"));
    assertThat(Http.get(uri("greet?user=carol")).statusCode()).isEqualTo(429);

    HttpResponse<String> dave = Http.get(uri("greet?user=dave"));

    assertThat(dave.statusCode()).isEqualTo(200);
    assertThat(dave.body()).isEqualTo("hello dave");
  }

  @Test
  void aLimitedResourceSendsTheRateLimitHeadersWhenItAdmits() {
    HttpResponse<String> response = Http.get(uri("rest/items"), "X-Client", "headers");

    assertThat(response.body()).isEqualTo("items");
    assertAdmitted(response, "rest", 2);
    assertThat(response.headers().firstValue("RateLimit-Policy")).hasValue("\"rest\";q=3;w=60");
  }

  @Test
  void aLimitedResourceRejectsThroughTheExceptionMapper() {
    for (int i = 0; i < 3; i++) {
      assertThat(Http.get(uri("rest/items"), "X-Client", "mapper").statusCode()).isEqualTo(200);
    }

    HttpResponse<String> rejected = Http.get(uri("rest/items"), "X-Client", "mapper");

    // 3 per minute: a permit every 20 s.
    assertRejected(rejected, "rest", 20);
  }

  @Test
  void aPolicyOnBothARouteAndAResourceChargesARequestOnce() {
    for (int i = 0; i < 4; i++) {
      HttpResponse<String> response = Http.get(uri("rest/items/shared/" + i), "X-Client", "shared");

      assertThat(response.body()).isEqualTo("item " + i);
      assertAdmitted(response, "shared", 3 - i);
    }

    assertRejected(Http.get(uri("rest/items/shared/4"), "X-Client", "shared"), "shared", 60);
  }

  @Test
  void aPolicyOfARouteAndOfAResourceIsOneBudgetInMemory() {
    OneBudget.refusesTheSixthCallWhicheverWayTheCallsAreSplit(Deployed.base(url), "memory");
  }

  @Test
  void heldRequestsReachARequestScopedResourceAfterTheirShapingWait() throws Exception {
    // Jersey starts on its first request: not during the burst, whose timing it would blur.
    Http.get(uri("rest/items"), "X-Client", "shape-warm-up");
    URI shaped = uri("rest/items/shaped");
    List<Long> finishedMillis = new ArrayList<>();
    List<HttpResponse<String>> responses = new ArrayList<>();
    ExecutorService clients = Executors.newFixedThreadPool(5);
    try {
      long start = System.nanoTime();
      List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        sent.add(
            CompletableFuture.supplyAsync(
                () -> {
                  HttpResponse<String> response = Http.get(shaped, "X-Client", "shape");
                  synchronized (finishedMillis) {
                    finishedMillis.add((System.nanoTime() - start) / 1_000_000);
                  }
                  return response;
                },
                clients));
      }
      for (CompletableFuture<HttpResponse<String>> each : sent) {
        responses.add(each.get());
      }
    } finally {
      clients.shutdownNow();
    }

    // Every one reaches the resource: the one that found the queue empty and the four it held.
    for (HttpResponse<String> response : responses) {
      assertThat(response.statusCode()).as("status; body: %s", response.body()).isEqualTo(200);
      assertThat(response.body()).isEqualTo("shaped");
    }
    // 2/s leaks one every 500 ms: the held four leave 0.5, 1, 1.5 and 2 s after the first.
    List<Long> finished = finishedMillis.stream().sorted().toList();
    System.out.println(
        "shaping before a @RequestScoped resource: responses at " + finished + " ms");
    for (int i = 1; i < finished.size(); i++) {
      assertThat(finished.get(i) - finished.get(i - 1))
          .as("ms between the %d. and the %d. response, all at %s", i, i + 1, finished)
          .isGreaterThanOrEqualTo(300);
    }
    assertThat(finished.get(4) - finished.get(0))
        .as("spread of %s", finished)
        .isBetween(1_700L, 5_000L);
  }
}
