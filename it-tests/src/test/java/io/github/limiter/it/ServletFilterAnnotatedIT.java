package io.github.limiter.it;

import static io.github.limiter.it.harness.RateLimitAssertions.assertAdmitted;
import static io.github.limiter.it.harness.RateLimitAssertions.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.servlet.AnnotatedRateLimitFilter;
import io.github.limiter.it.app.servlet.EchoServlet;
import io.github.limiter.it.app.servlet.SlowServlet;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import java.io.File;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code @WebFilter} subclass of RateLimitFilter, configured by
 * WEB-INF/classes/META-INF/microprofile-config.properties (src/test/webapps/annotated-filter).
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class ServletFilterAnnotatedIT {

  @Deployment
  static WebArchive app() {
    return ShrinkWrap.create(WebArchive.class, "annotated-filter.war")
        .addClasses(EchoServlet.class, SlowServlet.class, AnnotatedRateLimitFilter.class)
        .addAsResource(
            new File("src/test/webapps/annotated-filter/META-INF/microprofile-config.properties"),
            "META-INF/microprofile-config.properties");
  }

  @ArquillianResource URL url;

  private HttpResponse<String> get(String path, String client) {
    return Http.get(Deployed.base(url).resolve(path), "X-Client", client);
  }

  @Test
  void readsItsPoliciesFromMicroProfileConfig() {
    for (int i = 0; i < 3; i++) {
      assertAdmitted(get("mp/x", "mp"), "mp", 2 - i);
    }

    HttpResponse<String> rejected = get("mp/x", "mp");

    assertRejected(rejected, "mp", 60);
    assertThat(rejected.headers().firstValue("RateLimit-Policy")).hasValue("\"mp\";q=3;w=60");
  }

  @Test
  void aLeakyBucketShapesABurstInsteadOfRejectingIt() {
    long start = System.nanoTime();
    for (int i = 0; i < 6; i++) {
      HttpResponse<String> response = get("shaped/x", "shaper");

      assertThat(response.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(response.body()).isEqualTo("ok GET /shaped/x");
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

    // 5/s: one departure every 200 ms, so six requests one after another span at least 5 x 200 ms.
    assertThat(elapsed).isBetween(Duration.ofMillis(900), Duration.ofSeconds(5));
  }

  @Test
  void aDryRunPolicyReportsButNeverRejects() {
    assertAdmitted(get("dry/x", "dry"), "dry", 0);
    for (int i = 0; i < 4; i++) {
      HttpResponse<String> response = get("dry/x", "dry");

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("RateLimit"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("\"dry\";r=0;"));
    }
  }

  @Test
  void pathsOutsideEveryRoutePassUntouched() {
    HttpResponse<String> response = get("elsewhere", "elsewhere");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("RateLimit")).isEmpty();
  }

  @Test
  void anAdaptiveRouteAnswers503UnderOverloadWhileItsCriticalPathKeepsAnswering() throws Exception {
    // Given 12 clients that keep calling the sheddable path of a 300 ms backend, far more than its
    // adaptive limit of at most 4
    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<HttpResponse<String>> sheddable = new ConcurrentLinkedQueue<>();
    ExecutorService clients = Executors.newFixedThreadPool(12);
    List<HttpResponse<String>> critical = new ArrayList<>();
    try {
      for (int c = 0; c < 12; c++) {
        clients.submit(
            () -> {
              // bounded: until the critical calls are done, or 200 calls
              for (int i = 0; i < 200 && !done.get(); i++) {
                sheddable.add(get("overload/x", "shed"));
              }
            });
      }
      Thread.sleep(500); // the overload is under way
      // When the critical path is called meanwhile, one call after another
      for (int i = 0; i < 5; i++) {
        critical.add(get("vital/x", "vital"));
      }
    } finally {
      done.set(true);
      clients.shutdown();
      assertThat(clients.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
    // Then every critical call was answered
    assertThat(critical).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
    assertThat(critical.get(0).body()).isEqualTo("done /vital");
    // And sheddable calls were refused with 503s that say why and when to retry
    List<HttpResponse<String>> refused =
        sheddable.stream().filter(r -> r.statusCode() != 200).toList();
    assertThat(refused).isNotEmpty();
    assertThat(refused)
        .allSatisfy(
            r -> {
              assertThat(r.statusCode()).isEqualTo(503);
              assertThat(r.headers().firstValue("Retry-After")).hasValue("2");
              assertThat(r.body()).contains("urn:limiter:problem:overloaded").contains("backend");
            });
    assertThat(sheddable).anySatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
  }
}
