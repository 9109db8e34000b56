package io.github.limiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyTest {

  static final Limit TEN_PER_SECOND = Limit.of(10, Duration.ofSeconds(1));

  @ParameterizedTest
  @ValueSource(strings = {"api", "API_v2", "a", "login.strict", "x-1", "0day"})
  void acceptsNamesOfLettersDigitsDotsUnderscoresAndDashes(String name) {
    assertThat(Policy.fixedWindow(name, TEN_PER_SECOND).name()).isEqualTo(name);
  }

  @Test
  void aNameOf64CharactersIsTheLongestAccepted() {
    assertThat(Policy.fixedWindow("a".repeat(64), TEN_PER_SECOND).name()).hasSize(64);
    assertThatThrownBy(() -> Policy.fixedWindow("a".repeat(65), TEN_PER_SECOND))
        .hasMessageContaining("a".repeat(65));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " api", "-api", ".api", "api key", "api/v1", "ä", "api\"", "api,web"})
  void rejectsOtherNamesNamingTheBadValue(String name) {
    assertThatThrownBy(() -> Policy.tokenBucket(name, TEN_PER_SECOND))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("policy name")
        .hasMessageContaining("was '" + name + "'");
  }

  @Test
  void aNullNameIsRejectedToo() {
    assertThatThrownBy(() -> Policy.tokenBucket(null, TEN_PER_SECOND))
        .hasMessageContaining("was 'null'");
  }

  @Test
  void aPolicyNeedsAtLeastOneLimit() {
    assertThatThrownBy(() -> Policy.fixedWindow("api"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'api'")
        .hasMessageContaining("at least one limit");
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"FIXED_WINDOW", "SLIDING_WINDOW_COUNTER", "SLIDING_WINDOW_LOG"})
  void burstAndInitialAreRejectedOnWindowAlgorithms(Algorithm algorithm) {
    Limit burst = Limit.bucket(10, Duration.ofSeconds(1), 20);
    Limit initial = TEN_PER_SECOND.withInitial(0);

    assertThatThrownBy(() -> new Policy("api", algorithm, List.of(burst), FailureMode.FAIL_OPEN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'api'")
        .hasMessageContaining("burst and initial apply to token-bucket and leaky-bucket only")
        .hasMessageContaining(algorithm.configName())
        .hasMessageContaining("10/s burst=20");
    assertThatThrownBy(() -> new Policy("api", algorithm, List.of(initial), FailureMode.FAIL_OPEN))
        .hasMessageContaining("initial=0");
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"TOKEN_BUCKET", "LEAKY_BUCKET"})
  void bucketsTakeBurstAndInitial(Algorithm algorithm) {
    Limit limit = Limit.bucket(10, Duration.ofSeconds(1), 20).withInitial(5);

    Policy policy = new Policy("api", algorithm, List.of(limit), FailureMode.LOCAL);

    assertThat(policy.limits()).containsExactly(limit);
    assertThat(policy.algorithm()).isEqualTo(algorithm);
    assertThat(policy.failureMode()).isEqualTo(FailureMode.LOCAL);
  }

  @Test
  void dividedByNodesSharesWindowsAndBucketsRoundingDownButNotBelowOne() {
    // Given a window policy and a bucket policy
    Policy windows =
        Policy.fixedWindow(
            "w", Limit.of(10, Duration.ofSeconds(1)), Limit.of(2, Duration.ofHours(1)));
    Policy bucket =
        Policy.tokenBucket("b", new Limit(10, Duration.ofSeconds(1), 20, OptionalLong.of(7)));

    // When divided among 3 nodes
    Policy w3 = windows.dividedBy(3);
    Policy b3 = bucket.dividedBy(3);

    // Then windows admit N/3 (at least 1) per W; buckets refill at r/3 with capacity b/3
    assertThat(w3.limits())
        .containsExactly(Limit.of(3, Duration.ofSeconds(1)), Limit.of(1, Duration.ofHours(1)));
    assertThat(b3.limits())
        .containsExactly(new Limit(10, Duration.ofSeconds(3), 6, OptionalLong.of(2)));
    assertThat(b3.name()).isEqualTo("b");
    assertThat(b3.algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(bucket.dividedBy(1)).isSameAs(bucket);
    assertThat(
            Policy.leakyBucket("l", Limit.bucket(1, Duration.ofSeconds(1), 2))
                .dividedBy(5)
                .limits())
        .containsExactly(Limit.bucket(1, Duration.ofSeconds(5), 1));
  }

  @Test
  void dividedByRequiresAtLeastOneNode() {
    assertThatThrownBy(() -> Policy.fixedWindow("w", TEN_PER_SECOND).dividedBy(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes")
        .hasMessageContaining("0");
  }

  @Test
  void policiesAreValuesAndFailureModeIsPartOfThem() {
    Policy a = Policy.tokenBucket("api", TEN_PER_SECOND);

    assertThat(a)
        .isEqualTo(Policy.tokenBucket("api", TEN_PER_SECOND))
        .hasSameHashCodeAs(Policy.tokenBucket("api", TEN_PER_SECOND));
    assertThat(a).isNotEqualTo(a.withFailureMode(FailureMode.FAIL_CLOSED));
    assertThat(a).isNotEqualTo(Policy.leakyBucket("api", TEN_PER_SECOND));
    assertThat(a.withFailureMode(FailureMode.FAIL_CLOSED).failureMode())
        .isEqualTo(FailureMode.FAIL_CLOSED);
    assertThat(a.toString()).contains("api").contains("token-bucket").contains("10/s");
  }

  @Test
  void algorithmsAndFailureModesParseTheirConfigNames() {
    for (Algorithm algorithm : Algorithm.values()) {
      assertThat(Algorithm.fromConfigName(" " + algorithm.configName().toUpperCase() + " "))
          .isEqualTo(algorithm);
    }
    for (FailureMode mode : FailureMode.values()) {
      assertThat(FailureMode.fromConfigName(mode.configName())).isEqualTo(mode);
    }
    assertThat(Algorithm.TOKEN_BUCKET.isBucket()).isTrue();
    assertThat(Algorithm.SLIDING_WINDOW_LOG.isBucket()).isFalse();
    assertThatThrownBy(() -> Algorithm.fromConfigName("token_bucket"))
        .hasMessageContaining("was 'token_bucket'")
        .hasMessageContaining("token-bucket");
    assertThatThrownBy(() -> FailureMode.fromConfigName("open"))
        .hasMessageContaining("was 'open'")
        .hasMessageContaining("fail-open");
  }

  @Test
  void aConcurrencyPolicyHasOneLimitOfAtMostAMillionInFlight() {
    Policy export = Policy.concurrency("export", 4, Duration.ofSeconds(2));
    assertThat(export.algorithm()).isEqualTo(Algorithm.CONCURRENCY);
    assertThat(export.limits()).containsExactly(Limit.of(4, Duration.ofSeconds(2)));
    // shared by 3 nodes deciding locally: 1 each, never 0
    assertThat(export.dividedBy(3).limits()).containsExactly(Limit.of(1, Duration.ofSeconds(2)));

    assertThatThrownBy(
            () ->
                new Policy(
                    "export",
                    Algorithm.CONCURRENCY,
                    List.of(Limit.of(4, Duration.ofSeconds(1)), Limit.of(8, Duration.ofSeconds(1))),
                    FailureMode.LOCAL))
        .hasMessageContaining("a concurrency policy has one limit");
    assertThatThrownBy(() -> Policy.concurrency("export", 1_000_001, Duration.ofSeconds(1)))
        .hasMessageContaining("between 1 and 1000000, was 1000001");
    assertThatThrownBy(() -> Policy.concurrency("export", 0, Duration.ofSeconds(1)))
        .hasMessageContaining("was 0");
    assertThatThrownBy(() -> Policy.concurrency("export", 4, Duration.ofNanos(999_999)))
        .hasMessageContaining("retry-after must be at least 1ms");
  }
}
