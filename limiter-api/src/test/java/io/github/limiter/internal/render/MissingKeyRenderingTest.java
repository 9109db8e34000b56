package io.github.limiter.internal.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.http.HttpSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A request without a key under {@code on-missing-key=reject}: its own problem type, no promise of
 * a retry.
 */
class MissingKeyRenderingTest {

  static final Policy API = Policy.fixedWindow("api", Limit.of(100, Duration.ofMinutes(1)));

  @Test
  void aMissingKeyIs429WithItsOwnProblemTypeAndNoRetryAfter() {
    // Given a rejection for a missing key, with legacy headers on as well
    ResponseRenderer renderer =
        new ResponseRenderer(new HttpSettings(429, 503, true, true, List.of(), 64));
    Decision missing = Decision.missingKey("api", API.limits().get(0));

    // When it is rendered
    RateLimitResponse response = renderer.rejection(API, missing);

    // Then it is the rejection status with a problem naming the policy, no Retry-After and no
    // counter state
    assertThat(response.status()).isEqualTo(429);
    assertThat(response.header("Retry-After")).isNull();
    assertThat(response.header("Cache-Control")).isEqualTo("no-store");
    assertThat(response.header("RateLimit")).isNull();
    assertThat(response.header("X-RateLimit-Remaining")).isNull();
    @SuppressWarnings("unchecked")
    Map<String, Object> problem = (Map<String, Object>) MiniJson.parse(response.body());
    assertThat(problem.get("type")).isEqualTo("urn:limiter:problem:missing-key");
    assertThat(problem.get("title")).isEqualTo("Too Many Requests");
    assertThat((String) problem.get("detail"))
        .contains("no key")
        .contains("'api'")
        .contains("on-missing-key=reject");
    assertThat(problem.get("policies")).isEqualTo(List.of("api"));
  }

  @Test
  void theConfiguredRejectionStatusApplies() {
    ResponseRenderer renderer =
        new ResponseRenderer(new HttpSettings(403, 503, true, false, List.of(), 64));

    assertThat(renderer.rejection(API, Decision.missingKey("api", API.limits().get(0))).status())
        .isEqualTo(403);
  }
}
