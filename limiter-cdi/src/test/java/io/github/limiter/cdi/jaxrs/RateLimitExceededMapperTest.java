package io.github.limiter.cdi.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.cdi.RateLimitExceededException;
import io.github.limiter.internal.http.HttpSettings;
import io.github.limiter.internal.render.RateLimitResponse;
import io.github.limiter.internal.render.ResponseRenderer;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The mapper copies the one rendered rejection onto a Response (Jersey's RuntimeDelegate builds
 * it).
 */
class RateLimitExceededMapperTest {

  private final Policy api = Policy.fixedWindow("api", Limit.of(100, Duration.ofMinutes(1)));

  @Test
  void rejectionBecomesTheFiltersResponse() {
    RateLimitExceededException rejected =
        new RateLimitExceededException(
            api,
            Decision.limited(
                "api",
                api.limits().get(0),
                Duration.ofSeconds(18).toNanos(),
                Duration.ofMillis(2500).toNanos()),
            new ResponseRenderer(HttpSettings.DEFAULTS));
    RateLimitResponse rendered = rejected.response();

    Response response = new RateLimitExceededMapper().toResponse(rejected);

    assertThat(response.getStatus()).isEqualTo(429);
    assertThat(response.getMediaType()).isEqualTo(MediaType.valueOf("application/problem+json"));
    assertThat(response.getEntity()).isEqualTo(rendered.body());
    assertThat(response.getHeaderString("Retry-After")).isEqualTo("3");
    assertThat(response.getHeaderString("Cache-Control")).isEqualTo("no-store");
    assertThat(response.getHeaderString("RateLimit-Policy")).isEqualTo("\"api\";q=100;w=60");
    assertThat(response.getHeaderString("RateLimit")).isEqualTo("\"api\";r=0;t=3");
    for (Map.Entry<String, String> header : rendered.headers()) {
      assertThat(response.getStringHeaders().get(header.getKey()))
          .containsExactly(header.getValue());
    }
  }

  @Test
  void configuredStatusesAndLegacyHeadersAreKept() {
    HttpSettings settings = new HttpSettings(503, 500, false, true, List.of(), 64);
    RateLimitExceededException unavailable =
        new RateLimitExceededException(
            api,
            Decision.unavailable("api", api.limits().get(0), Duration.ofSeconds(1).toNanos()),
            new ResponseRenderer(settings));
    RateLimitExceededException limited =
        new RateLimitExceededException(
            api,
            Decision.limited("api", api.limits().get(0), 0, Duration.ofSeconds(1).toNanos()),
            new ResponseRenderer(settings));

    assertThat(new RateLimitExceededMapper().toResponse(unavailable).getStatus()).isEqualTo(500);
    Response response = new RateLimitExceededMapper().toResponse(limited);
    assertThat(response.getStatus()).isEqualTo(503);
    assertThat(response.getHeaderString("X-RateLimit-Remaining")).isEqualTo("0");
    assertThat(response.getHeaderString("RateLimit")).isNull();
  }
}
