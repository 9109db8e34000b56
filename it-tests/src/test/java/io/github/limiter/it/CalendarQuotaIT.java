package io.github.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.servlet.EchoServlet;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import java.io.File;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Daily calendar quotas per plan on Payara Micro (src/test/webapps/quota-filter): a plan is refused
 * after its quota, and Retry-After points to the next midnight of the quota's zone.
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class CalendarQuotaIT {

  static final ZoneId ZONE = ZoneId.of("Pacific/Chatham");

  @Deployment
  static WebArchive app() {
    return ShrinkWrap.create(WebArchive.class, "quota-filter.war")
        .addClass(EchoServlet.class)
        .setWebXML(new File("src/test/webapps/quota-filter/WEB-INF/web.xml"));
  }

  @ArquillianResource URL url;

  private HttpResponse<String> get(String client, String plan) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(Deployed.base(url).resolve("api/calls")).header("X-Client", client);
    if (plan != null) {
      request.header("X-Plan", plan);
    }
    return Http.send(request.GET());
  }

  /** Seconds from {@code at} to the next midnight in {@link #ZONE}. */
  static long secondsToMidnight(Instant at) {
    LocalDate tomorrow = at.atZone(ZONE).toLocalDate().plusDays(1);
    return Duration.between(at, tomorrow.atStartOfDay(ZONE).toInstant()).toSeconds();
  }

  @Test
  void aPlanIsRefusedAfterItsDailyQuotaUntilMidnightInItsZone() {
    // Given the pro plan's 4 a day
    for (int i = 0; i < 4; i++) {
      HttpResponse<String> admitted = get("pro-customer", "pro");
      assertThat(admitted.statusCode()).as("request %d", i + 1).isEqualTo(200);
    }
    Instant before = Instant.now();

    // When the fifth comes
    HttpResponse<String> refused = get("pro-customer", "pro");
    Instant after = Instant.now();

    // Then it is refused until the next midnight in Chatham
    assertThat(refused.statusCode()).isEqualTo(429);
    long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
    assertThat(retryAfter).isBetween(secondsToMidnight(after) - 1, secondsToMidnight(before) + 1);
    assertThat(refused.headers().firstValue("RateLimit-Policy"))
        .hasValueSatisfying(v -> assertThat(v).contains("\"daily.plan.pro.2\";q=4;w=86400"));
  }

  @Test
  void theDefaultPlanHasItsOwnSmallerQuota() {
    assertThat(get("free-customer", null).statusCode()).isEqualTo(200);
    Instant before = Instant.now();
    HttpResponse<String> second = get("free-customer", null);
    Instant after = Instant.now();
    assertThat(second.statusCode()).isEqualTo(200);
    // The quota binds: RateLimit reports it, with its real reset at the zone's midnight
    String rateLimit = second.headers().firstValue("RateLimit").orElseThrow();
    assertThat(rateLimit).startsWith("\"daily.2\";r=0;t=");
    assertThat(Long.parseLong(rateLimit.substring(rateLimit.indexOf(";t=") + 3)))
        .isBetween(secondsToMidnight(after) - 1, secondsToMidnight(before) + 1);
    HttpResponse<String> refused = get("free-customer", null);
    assertThat(refused.statusCode()).isEqualTo(429);
    long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
    assertThat(retryAfter).isBetween(1L, secondsToMidnight(Instant.now()) + 1);
  }
}
