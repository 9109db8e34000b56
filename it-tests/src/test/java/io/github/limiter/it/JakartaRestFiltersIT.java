package io.github.limiter.it;

import static io.github.limiter.it.harness.RateLimitAssertions.assertAdmitted;
import static io.github.limiter.it.harness.RateLimitAssertions.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.jaxrs.OrdersApplication;
import io.github.limiter.it.app.jaxrs.OrdersResource;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import io.github.limiter.it.harness.ServerLog;
import io.github.limiter.jaxrs.RateLimitFeature;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Jakarta REST filters alone, with no servlet filter declared: a WAR whose only limiter of HTTP
 * requests is limiter-jaxrs, found by the server's provider scanning, with its routes in
 * META-INF/microprofile-config.properties (src/test/webapps/jaxrs-filters). It decides with the
 * application's CDI runtime and answers with the servlet filter's 429.
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class JakartaRestFiltersIT {

  @Deployment
  static WebArchive app() {
    return ShrinkWrap.create(WebArchive.class, "jaxrs-filters.war")
        .addClasses(OrdersApplication.class, OrdersResource.class)
        .addAsLibrary(
            ShrinkWrap.create(JavaArchive.class, "limiter-jaxrs.jar")
                .addPackage(RateLimitFeature.class.getPackage()))
        .addAsResource(
            new File("src/test/webapps/jaxrs-filters/META-INF/microprofile-config.properties"),
            "META-INF/microprofile-config.properties");
  }

  @ArquillianResource URL url;

  private URI uri(String path) {
    return Deployed.base(url).resolve(path);
  }

  @Test
  void aRouteGets429sWithTheHeadersAndTheProblemBody() {
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> admitted = Http.get(uri("api/orders/1"), "X-Client", "over");
      assertThat(admitted.body()).isEqualTo("order 1");
      assertAdmitted(admitted, "orders", 2 - i);
    }

    HttpResponse<String> refused = Http.get(uri("api/orders/2"), "X-Client", "over");

    assertRejected(refused, "orders", 60);
    assertThat(refused.headers().firstValue("RateLimit-Policy")).hasValue("\"orders\";q=3;w=60");
  }

  @Test
  void eachClientHasItsOwnBudgetAndPathsOnNoRoutePass() {
    for (int i = 0; i < 3; i++) {
      Http.get(uri("api/orders/1"), "X-Client", "first");
    }
    assertThat(Http.get(uri("api/orders/1"), "X-Client", "first").statusCode()).isEqualTo(429);

    assertThat(Http.get(uri("api/orders/1"), "X-Client", "second").statusCode()).isEqualTo(200);
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> free = Http.get(uri("api/status"), "X-Client", "first");
      assertThat(free.statusCode()).isEqualTo(200);
      assertThat(free.headers().firstValue("RateLimit")).isEmpty();
    }
  }

  @Test
  void theStartLogsWhatTheFiltersRead() {
    Http.get(uri("api/status"));

    assertThat(ServerLog.line("Limiter started for RateLimitFeature: "))
        .contains("orders: fixed-window 3/")
        .contains("orders: /orders/* -> orders");
  }
}
