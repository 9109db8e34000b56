package io.github.limiter.it;

import static io.github.limiter.it.harness.RateLimitAssertions.assertAdmitted;
import static io.github.limiter.it.harness.RateLimitAssertions.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.servlet.EchoServlet;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import io.github.limiter.it.harness.ServerLog;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * RateLimitFilter declared in web.xml and configured by its init-params alone
 * (src/test/webapps/webxml-filter). Each test uses its own X-Client, the key of its policies.
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class ServletFilterWebXmlIT {

  @Deployment
  static WebArchive app() {
    return ShrinkWrap.create(WebArchive.class, "webxml-filter.war")
        .addClass(EchoServlet.class)
        .setWebXML(new File("src/test/webapps/webxml-filter/WEB-INF/web.xml"));
  }

  @ArquillianResource URL url;

  private HttpResponse<String> get(String path, String client) {
    return Http.get(Deployed.base(url).resolve(path), "X-Client", client);
  }

  /** Issue 36.2: the filter's start says what it read, in one INFO line. */
  @Test
  void theStartLogsWhatTheFilterRead() {
    String line = ServerLog.line("Limiter started for RateLimitFilter 'limiter': ");

    assertThat(line)
        .contains("2 policies [api: token-bucket 5/")
        .contains("by key header:X-Client (if missing: remote-address); writes: fixed-window 1/")
        .contains("2 routes [api: /api/* -> api; writes: POST /writes/* -> writes]")
        .contains(", store memory, metrics ");
  }

  @Test
  void admitsTheLimitThenRejectsWithA429() {
    for (int i = 0; i < 5; i++) {
      assertAdmitted(get("api/things", "limit"), "api", 4 - i);
    }

    HttpResponse<String> rejected = get("api/things", "limit");

    // 5 per minute: one permit every 12 s.
    assertRejected(rejected, "api", 12);
  }

  @Test
  void everyResponseUnderAPolicyCarriesTheRateLimitHeaders() {
    HttpResponse<String> first = get("api/things", "headers");

    assertThat(first.body()).isEqualTo("ok GET /api/things");
    assertThat(first.headers().firstValue("RateLimit-Policy")).hasValue("\"api\";q=5;w=60");
    assertThat(first.headers().firstValue("RateLimit"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("\"api\";r=4;t="));
    assertThat(first.headers().firstValue("X-RateLimit-Limit")).hasValue("5");
    assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("4");
  }

  @Test
  void eachClientHasItsOwnBucket() {
    for (int i = 0; i < 5; i++) {
      get("api/things", "greedy");
    }
    assertRejected(get("api/things", "greedy"), "api", 12);

    assertAdmitted(get("api/things", "modest"), "api", 4);
  }

  @Test
  void pathsOutsideEveryRoutePassUntouched() {
    for (int i = 0; i < 20; i++) {
      HttpResponse<String> response = get("open/page", "open");

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("RateLimit")).isEmpty();
    }
  }

  @Test
  void aRouteWithMethodsLimitsOnlyThoseMethods() {
    URI writes = Deployed.base(url).resolve("writes/note");
    HttpResponse<String> firstPost =
        Http.send(
            HttpRequest.newBuilder(writes)
                .header("X-Client", "writer")
                .POST(HttpRequest.BodyPublishers.noBody()));
    HttpResponse<String> secondPost =
        Http.send(
            HttpRequest.newBuilder(writes)
                .header("X-Client", "writer")
                .POST(HttpRequest.BodyPublishers.noBody()));
    HttpResponse<String> get = Http.get(writes, "X-Client", "writer");

    assertAdmitted(firstPost, "writes", 0);
    assertThat(firstPost.body()).isEqualTo("ok POST /writes/note");
    assertRejected(secondPost, "writes", 60);
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.headers().firstValue("RateLimit")).isEmpty();
  }
}
