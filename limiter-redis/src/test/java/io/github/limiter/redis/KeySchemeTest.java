package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

class KeySchemeTest {

  private static final Policy TWO_LIMITS =
      Policy.tokenBucket(
          "api", Limit.of(10, Duration.ofSeconds(1)), Limit.of(100, Duration.ofMinutes(1)));

  private final CompiledPolicy api = new CompiledPolicy(TWO_LIMITS, new KeyScheme("limiter:"));

  @Test
  void keysNameThePrefixThePolicyTheClientAndTheLimit() {
    assertThat(api.keys("10.0.0.1"))
        .containsExactly("limiter:{api:10.0.0.1}:tb0", "limiter:{api:10.0.0.1}:tb1");
    assertThat(api.keys("2001:db8::1"))
        .containsExactly("limiter:{api:2001:db8::1}:tb0", "limiter:{api:2001:db8::1}:tb1");
  }

  @Test
  void bracesInAClientKeyCannotMoveTheHashTag() {
    for (String hostile :
        List.of(
            "}",
            "{",
            "a}b",
            "{x}",
            "}{",
            "{}",
            "x}:tb0",
            "",
            "%7D",
            "ä",
            "\uD83D\uDE00",
            "\uD800")) {
      List<String> keys = api.keys(hostile);
      String key = keys.get(0);
      String tag = key.substring(key.indexOf('{') + 1, key.indexOf('}'));
      // The tag Redis hashes is exactly the policy and the escaped client key
      assertThat(tag).as("tag of '%s'", hostile).startsWith("api:").doesNotContain("{", "}");
      assertThat(key).endsWith("}:tb0");
      assertThat(JedisClusterCRC16.getSlot(keys.get(1))).isEqualTo(JedisClusterCRC16.getSlot(key));
    }
  }

  @Test
  void escapingIsInjective() {
    Random random = new Random(1);
    char[] alphabet = {
      'a', '%', '{', '}', ':', ' ', '0', '7', 'D', 'B', 'ä', '\uD800', '\uDC00', '\n'
    };
    Set<String> clientKeys = new HashSet<>();
    Set<String> redisKeys = new HashSet<>();
    for (int i = 0; i < 20_000; i++) {
      StringBuilder key = new StringBuilder();
      for (int n = random.nextInt(6); n > 0; n--) {
        key.append(alphabet[random.nextInt(alphabet.length)]);
      }
      if (clientKeys.add(key.toString())) {
        assertThat(redisKeys.add(api.keys(key.toString()).get(0)))
            .as("'%s' collides", key)
            .isTrue();
      }
    }
  }

  @Test
  void policiesNeverShareKeys() {
    KeyScheme scheme = new KeyScheme("limiter:");
    Policy a = Policy.fixedWindow("a", Limit.of(1, Duration.ofSeconds(1)));
    Policy ab = Policy.fixedWindow("a.b", Limit.of(1, Duration.ofSeconds(1)));
    Policy aAsBucket = Policy.tokenBucket("a", Limit.of(1, Duration.ofSeconds(1)));
    Set<String> keys = new HashSet<>();
    for (Policy p : List.of(a, ab, aAsBucket)) {
      CompiledPolicy c = new CompiledPolicy(p, scheme);
      keys.add(c.keys("b:x").get(0));
      keys.add(c.keys("x").get(0));
    }
    assertThat(keys).hasSize(6);
  }

  @Test
  void aPrefixWithBracesIsRejected() {
    assertThatThrownBy(() -> RedisStore.builder().keyPrefix("app{1}:"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("app{1}:");
  }

  @Test
  void parametersAreWholeMicrosecondsRoundedUp() {
    // 3 per second: 333333.33 µs rounds up to 333334 µs, as the pure function at 1 µs does
    CompiledPolicy c =
        new CompiledPolicy(
            Policy.leakyBucket("p", Limit.bucket(3, Duration.ofSeconds(1), 5)), new KeyScheme(""));
    // ... then the version's start, '' when it has none
    assertThat(c.args("", 1, "0")).containsExactly("", "1", "0", "333334", "5", "0", "");
    CompiledPolicy w =
        new CompiledPolicy(
            Policy.slidingWindowLog("w", Limit.of(7, Duration.ofNanos(1_500_001))),
            new KeyScheme(""));
    assertThat(w.args("5", 2, "600000")).containsExactly("5", "2", "600000", "1501", "7");
  }
}
