package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** AUTH with an ACL user and password, on a server of its own that requires it. */
class AuthTest {

  private static RedisServer server;
  private static final Policy POLICY =
      Policy.fixedWindow("auth", Limit.of(5, Duration.ofMinutes(1)))
          .withFailureMode(io.github.limiter.FailureMode.FAIL_OPEN);

  @BeforeAll
  static void start() {
    server =
        RedisServer.start(
            "auth",
            "--user",
            "default",
            "off",
            "--user",
            "limiter",
            "on",
            ">s3cr:t@",
            "~limiter:*",
            "+@all");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Whether a decision is Redis's own within 2 s: connections open in the background. */
  private static boolean verified(RedisStore store) {
    return Await.within(Duration.ofSeconds(2), () -> store.decide(POLICY, "k", 1).isVerified());
  }

  @Test
  void credentialsInTheUrlAreUsed() {
    try (RedisStore store =
        RedisStore.builder()
            .url("redis://limiter:s3cr%3At%40@127.0.0.1:" + server.port())
            .build()) {
      assertThat(verified(store)).isTrue();
    }
  }

  @Test
  void credentialsFromConfigurationWinOverTheUrl() {
    Map<String, String> config =
        Map.of(
            "limiter.redis.url", "redis://nobody:wrong@127.0.0.1:" + server.port(),
            "limiter.redis.user", "limiter",
            "limiter.redis.password", "s3cr:t@");
    try (RedisStore store = RedisStoreFactory.builder(ConfigLookup.of(config)).build()) {
      assertThat(verified(store)).isTrue();
    }
  }

  @Test
  void aWrongPasswordFailsOpenAndShowsInHealth() {
    try (RedisStore store =
        RedisStore.builder()
            .url("redis://127.0.0.1:" + server.port())
            .user("limiter")
            .password("wrong")
            .decisionTimeout(Duration.ofMillis(100))
            .build()) {
      assertThat(verified(store)).isFalse();
      assertThat(store.decide(POLICY, "k", 1).isAllowed()).isTrue();
      assertThat(store.health().up()).isFalse();
      assertThat(store.health().lastError()).get().asString().containsIgnoringCase("WRONGPASS");
    }
  }
}
