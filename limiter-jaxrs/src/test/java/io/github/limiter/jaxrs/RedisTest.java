package io.github.limiter.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two Jersey applications, each with the Jakarta REST filters over a real redis-server, keep one
 * budget per key: together they admit the limit, and either refuses the next request.
 */
@ExtendWith(RedisExtension.class)
class RedisTest {

  @Test
  void twoNodesShareOneBudgetOnRedis(RedisServer redis) throws Exception {
    Map<String, String> config =
        TestApp.props(
            "limiter.store", "redis",
            "limiter.redis.url", redis.url(),
            "limiter.redis.key-prefix", "jaxrs-" + UUID.randomUUID() + ":",
            "limiter.policy.api.algorithm", "sliding-window-counter",
            "limiter.policy.api.limits", "4/1h",
            "limiter.policy.api.key", "header:X-Client",
            "limiter.route.api.pattern", "/items/*",
            "limiter.route.api.policies", "api");
    try (TestApp one = TestApp.jersey(TestApp.resources(config));
        TestApp two = TestApp.jersey(TestApp.resources(config))) {
      for (int i = 0; i < 4; i++) {
        TestApp node = i % 2 == 0 ? one : two;
        assertThat(node.get("/items/1", "X-Client", "shared").statusCode())
            .as("request %d", i + 1)
            .isEqualTo(200);
      }
      for (TestApp node : new TestApp[] {one, two}) {
        HttpResponse<String> refused = node.get("/items/1", "X-Client", "shared");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        assertThat(refused.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(refused.body()).contains("\"policies\":[\"api\"]");
      }
      assertThat(two.get("/items/1", "X-Client", "other").statusCode()).isEqualTo(200);
    }
  }
}
