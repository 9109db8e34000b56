package io.github.limiter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.redis.RedisStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.junit.jupiter.api.Test;

/**
 * The readiness check over real stores: DOWN only while a fail-closed policy's store cannot decide.
 */
class LimiterReadinessTest {

  private static LimiterConfig config(String failure) {
    return LimiterConfig.from(
        ConfigLookup.of(
            Map.of(
                "limiter.policy.api.algorithm", "token-bucket",
                "limiter.policy.api.limits", "100/s burst=100",
                "limiter.policy.api.failure", failure)));
  }

  private static HealthCheckResponse check(String name, RateLimitStore store, String failure) {
    return LimiterReadiness.check(
        List.of(LimiterRuntime.Readiness.of(name, store, config(failure), Map.of())));
  }

  @Test
  void anInMemoryStoreIsReadyAndShowsItsKeys() throws Exception {
    InMemoryStore store = InMemoryStore.create();
    LimiterConfig config = config("fail-closed");
    store.decide(config.policy("api").orElseThrow().policy(), "client-1", 1);

    try (LimiterRuntime runtime =
        LimiterRuntime.over(store, config, null, getClass().getClassLoader(), Recorder.NOOP)) {
      HealthCheckResponse response = LimiterReadiness.check(List.of(runtime.readiness()));

      assertThat(response.getName()).isEqualTo("limiter");
      assertThat(response.getStatus()).isEqualTo(Status.UP);
      assertThat(response.getData().orElseThrow())
          .containsEntry("store", "memory")
          .containsEntry("breaker", "closed")
          .containsEntry("keys", 1L)
          .containsEntry("fail-closed", "api");
    }
  }

  @Test
  void noStoreOpenYetIsReady() {
    assertThat(LimiterReadiness.check(List.of()).getStatus()).isEqualTo(Status.UP);
  }

  /**
   * The breaker stays open the least the builder takes, 1 ms: restarting Redis, a real process
   * start awaited until it answers PING, outlasts it, so the test never waits for time itself.
   */
  @Test
  void aDeadRedisIsNotReadyForFailClosedAndReadyAgainWhenItComesBack() {
    try (RedisServer server = RedisServer.start("readiness");
        RedisStore store =
            RedisStore.builder()
                .url(server.url())
                .decisionTimeout(Duration.ofMillis(100))
                .socketTimeout(Duration.ofMillis(80))
                .breakerFailureThreshold(3)
                .breakerOpenDuration(Duration.ofMillis(1))
                .build()) {
      Policy policy = config("fail-closed").policy("api").orElseThrow().policy();
      assertThat(store.decide(policy, "client", 1).isVerified()).isTrue();
      assertThat(check("redis", store, "fail-closed").getStatus()).isEqualTo(Status.UP);

      // When Redis dies and decisions fail until the breaker opens
      server.kill();
      for (int i = 0; i < 3; i++) {
        store.decide(policy, "client", 1);
      }

      // Then the fail-closed application is not ready, and says why
      HealthCheckResponse down = check("redis", store, "fail-closed");
      assertThat(down.getStatus()).isEqualTo(Status.DOWN);
      assertThat(down.getData().orElseThrow())
          .containsEntry("breaker", "open")
          .containsKey("last-error");
      // But a fail-open application decides without Redis, so it stays ready
      assertThat(check("redis", store, "fail-open").getStatus()).isEqualTo(Status.UP);
      assertThat(check("redis", store, "local").getStatus()).isEqualTo(Status.UP);

      // When Redis comes back and a decision after the open duration closes the breaker
      server.restart();
      Decision decision = store.decide(policy, "client", 1);

      // Then it is ready again
      assertThat(decision.isVerified()).isTrue();
      assertThat(check("redis", store, "fail-closed").getStatus()).isEqualTo(Status.UP);
    }
  }
}
