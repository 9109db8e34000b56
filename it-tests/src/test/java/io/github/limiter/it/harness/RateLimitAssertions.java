package io.github.limiter.it.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

/** What every rejection by the limiter must look like on the wire, whichever adapter wrote it. */
public final class RateLimitAssertions {

  private RateLimitAssertions() {}

  /**
   * A 429 by {@code policy}: Retry-After in whole seconds within {@code [1, maxRetryAfter]},
   * Cache-Control: no-store, an application/problem+json body naming the policy, and the RateLimit
   * headers reporting nothing left.
   */
  public static void assertRejected(
      HttpResponse<String> response, String policy, long maxRetryAfter) {
    assertThat(response.statusCode()).as("status of " + response.uri()).isEqualTo(429);
    assertThat(response.headers().firstValue("Retry-After"))
        .as("Retry-After")
        .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(1L, maxRetryAfter));
    assertThat(response.headers().firstValue("Cache-Control"))
        .as("Cache-Control")
        .hasValue("no-store");
    assertThat(response.headers().firstValue("Content-Type"))
        .as("Content-Type")
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(response.body())
        .contains("\"status\":429")
        .contains("\"type\":\"urn:limiter:problem:rate-limited\"")
        .contains("\"policies\":[\"" + policy + "\"]");
    assertThat(response.headers().firstValue("RateLimit"))
        .as("RateLimit")
        .hasValueSatisfying(v -> assertThat(v).startsWith("\"" + policy + "\";r=0;t="));
    assertThat(response.headers().firstValue("RateLimit-Policy"))
        .as("RateLimit-Policy")
        .isPresent();
  }

  /** A 2xx with {@code remaining} permits left under {@code policy}, per the RateLimit header. */
  public static void assertAdmitted(HttpResponse<String> response, String policy, long remaining) {
    assertThat(response.statusCode()).as("status of " + response.uri()).isBetween(200, 299);
    assertThat(response.headers().firstValue("RateLimit"))
        .as("RateLimit")
        .hasValueSatisfying(
            v -> assertThat(v).startsWith("\"" + policy + "\";r=" + remaining + ";t="));
  }
}
