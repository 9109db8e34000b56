package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Algorithm;
import io.github.limiter.ConfigException;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.SettingsSection;
import io.github.limiter.internal.store.Stores;
import io.github.limiter.spi.ConfigLookup;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OutboundConfigTest {

  private static Map<String, OutboundConfig> read(Map<String, String> properties) {
    return OutboundConfig.readAll(ConfigLookup.of(properties));
  }

  @Test
  void readsAnOutboundPolicyWithTheKeysOfAPolicyAndItsOwn() {
    OutboundConfig partner =
        read(Map.ofEntries(
                Map.entry("limiter.outbound.partner.algorithm", "token-bucket"),
                Map.entry("limiter.outbound.partner.limits", "10/s burst=20"),
                Map.entry("limiter.outbound.partner.permits", "2"),
                Map.entry("limiter.outbound.partner.failure", "fail-closed"),
                Map.entry(
                    "limiter.outbound.partner.upstreams",
                    "https://API.partner.example, http://127.0.0.1:8089/"),
                Map.entry("limiter.outbound.partner.credential", "header:Authorization"),
                Map.entry("limiter.outbound.partner.max-wait", "2s"),
                Map.entry("limiter.outbound.partner.after-max-wait", "proceed"),
                Map.entry("limiter.outbound.partner.max-block", "1m"),
                Map.entry("limiter.outbound.partner.retry-attempts", "3"),
                Map.entry("limiter.outbound.partner.retry-max-time", "10s"),
                Map.entry("limiter.outbound.partner.retry-backoff", "100ms"),
                Map.entry("limiter.outbound.partner.retry-max-backoff", "5s")))
            .get("partner");

    assertThat(partner.policy().algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(partner.policy().limits())
        .containsExactly(Limit.bucket(10, Duration.ofSeconds(1), 20));
    assertThat(partner.policy().failureMode()).isEqualTo(FailureMode.FAIL_CLOSED);
    assertThat(partner.permits()).isEqualTo(2);
    assertThat(partner.upstreams())
        .containsExactly("https://api.partner.example:443", "http://127.0.0.1:8089");
    assertThat(partner.credential()).isEqualTo(KeySource.parse("header:Authorization"));
    assertThat(partner.maxWait()).isEqualTo(Duration.ofSeconds(2));
    assertThat(partner.proceed()).isTrue();
    assertThat(partner.maxBlock()).isEqualTo(Duration.ofMinutes(1));
    assertThat(partner.retry())
        .isEqualTo(
            new OutboundConfig.Retry(
                3, Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofSeconds(5)));
  }

  @Test
  void theDefaultsAreSafe() {
    OutboundConfig partner =
        read(Map.of(
                "limiter.outbound.partner.algorithm", "fixed-window",
                "limiter.outbound.partner.limits", "100/m"))
            .get("partner");

    assertThat(partner.permits()).isEqualTo(1);
    assertThat(partner.upstreams()).isEmpty();
    assertThat(partner.credential()).isNull();
    assertThat(partner.maxWait()).isZero();
    assertThat(partner.proceed()).isFalse();
    assertThat(partner.maxBlock()).isEqualTo(Duration.ofMinutes(5));
    assertThat(partner.retry().attempts()).isEqualTo(1);
  }

  @Test
  void aWaitOfNoneIsWrittenZero() {
    OutboundConfig partner =
        read(Map.of(
                "limiter.outbound.partner.algorithm", "fixed-window",
                "limiter.outbound.partner.limits", "100/m",
                "limiter.outbound.partner.max-wait", "0s",
                "limiter.outbound.partner.retry-max-time", "0"))
            .get("partner");

    assertThat(partner.maxWait()).isZero();
    assertThat(partner.retry().maxTime()).isZero();
  }

  @Test
  void everyBadValueIsReportedAtOnceWithItsKeyAndValue() {
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        "limiter.outbound.partner.algorithm", "token-bucket",
                        "limiter.outbound.partner.limits", "10/s",
                        "limiter.outbound.partner.max-wait", "10m",
                        "limiter.outbound.partner.upstreams", "ftp://files.example",
                        "limiter.outbound.partner.credential", "principal",
                        "limiter.outbound.partner.after-max-wait", "maybe",
                        "limiter.outbound.partner.retry-attempts", "0",
                        "limiter.outbound.partner.max-block", "0s")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.outbound.partner.max-wait")
        .hasMessageContaining("'10m'")
        .hasMessageContaining("limiter.outbound.partner.upstreams")
        .hasMessageContaining("'ftp://files.example'")
        .hasMessageContaining("limiter.outbound.partner.credential")
        .hasMessageContaining("'principal'")
        .hasMessageContaining("limiter.outbound.partner.after-max-wait")
        .hasMessageContaining("'maybe'")
        .hasMessageContaining("limiter.outbound.partner.retry-attempts")
        .hasMessageContaining("limiter.outbound.partner.max-block")
        .hasMessageContaining("'0s'");
  }

  @Test
  void anUnknownKeyAMissingLimitAndAnUpstreamWithAPathFail() {
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        "limiter.outbound.partner.algorithm", "token-bucket",
                        "limiter.outbound.partner.limit", "10/s")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.outbound.partner.limit");
    assertThatThrownBy(() -> read(Map.of("limiter.outbound.partner.algorithm", "token-bucket")))
        .hasMessageContaining("limiter.outbound.partner.limits")
        .hasMessageContaining("required");
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        "limiter.outbound.partner.algorithm", "token-bucket",
                        "limiter.outbound.partner.limits", "10/s",
                        "limiter.outbound.partner.upstreams", "https://partner.example/v1")))
        .hasMessageContaining("limiter.outbound.partner.upstreams")
        .hasMessageContaining("'https://partner.example/v1'");
  }

  @Test
  void theChecksAcrossKeysNameTheKeyAndTheValue() {
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        "limiter.outbound.partner.algorithm", "token-bucket",
                        "limiter.outbound.partner.limits", "10/s burst=5",
                        "limiter.outbound.partner.permits", "6")))
        .hasMessageContaining("limiter.outbound.partner.permits")
        .hasMessageContaining("'6'");
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        "limiter.outbound.partner.algorithm", "token-bucket",
                        "limiter.outbound.partner.limits", "10/s",
                        "limiter.outbound.partner.retry-backoff", "2s",
                        "limiter.outbound.partner.retry-max-backoff", "1s")))
        .hasMessageContaining("limiter.outbound.partner.retry-max-backoff")
        .hasMessageContaining("'1s'");
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        "limiter.outbound.partner.algorithm", "token-bucket",
                        "limiter.outbound.partner.limits", "10/s",
                        "limiter.outbound.partner.retry-after", "2s")))
        .hasMessageContaining("limiter.outbound.partner.retry-after")
        .hasMessageContaining("'2s'");
  }

  @Test
  void aConcurrencyLimitBoundsTheCallsInFlight() {
    OutboundConfig partner =
        read(Map.of(
                "limiter.outbound.partner.algorithm", "concurrency",
                "limiter.outbound.partner.limits", "4",
                "limiter.outbound.partner.retry-after", "50ms"))
            .get("partner");

    assertThat(partner.policy().limits()).containsExactly(Limit.of(4, Duration.ofMillis(50)));
  }

  @Test
  void theOriginOfACallIsItsSchemeHostAndPort() {
    assertThat(OutboundConfig.origin(URI.create("https://Partner.example/v1/pay?x=1")))
        .isEqualTo("https://partner.example:443");
    assertThat(OutboundConfig.origin(URI.create("http://127.0.0.1:8089/a")))
        .isEqualTo("http://127.0.0.1:8089");
    assertThatThrownBy(() -> OutboundConfig.origin(URI.create("/relative")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'/relative'");
  }

  /**
   * limiter.outbound.* is this module's own section, found through ServiceLoader: not the core's,
   * not a store's, and the core neither reads it as inbound policies nor takes its keys as unknown.
   */
  @Test
  void theOutboundSectionIsThisModulesOwn() {
    assertThat(LimiterConfig.CORE_SECTIONS).doesNotContain("outbound");
    ClassLoader loader = getClass().getClassLoader();
    assertThat(SettingsSection.load(loader))
        .anySatisfy(section -> assertThat(section).isInstanceOf(OutboundSection.class));
    ConfigLookup outbound =
        ConfigLookup.of(
            Map.of(
                "limiter.outbound.partner.algorithm", "token-bucket",
                "limiter.outbound.partner.limits", "10/s"));
    assertThat(Stores.check("memory", outbound, loader).name()).isEqualTo("memory");
    assertThat(new OutboundSection().policies(outbound))
        .extracting(Policy::name)
        .containsExactly("partner");
    assertThat(
            LimiterConfig.from(
                    ConfigLookup.of(
                        Map.of(
                            "limiter.outbound.partner.algorithm", "token-bucket",
                            "limiter.outbound.partner.limits", "10/s")))
                .policies())
        .isEmpty();
  }

  @Test
  void everyOutboundSettingIsDeclaredOnce() {
    assertThat(List.copyOf(OutboundSettings.NAMES)).doesNotHaveDuplicates();
  }

  /**
   * Environment variables cannot be listed by key name, so outbound policies set only there are
   * named in limiter.outbounds, then their keys are looked up as any other; a variable under
   * LIMITER_OUTBOUND_ that is the form of no such key is a typo.
   */
  @Test
  void outboundPoliciesSetOnlyInEnvironmentVariablesAreListed() {
    Map<String, String> hidden =
        Map.of(
            "limiter.outbound.partner.algorithm", "token-bucket",
            "limiter.outbound.partner.limits", "5/s",
            "limiter.outbound.partner.upstreams", "https://api.partner.example");
    Map<String, String> visible =
        Map.of("limiter.outbounds", "partner", "LIMITER_OUTBOUND_PARTNER_LIMITS", "5/s");
    ConfigLookup lookup =
        new ConfigLookup() {
          @Override
          public Optional<String> get(String key) {
            return Optional.ofNullable(visible.getOrDefault(key, hidden.get(key)));
          }

          @Override
          public Iterable<String> names() {
            return visible.keySet();
          }
        };

    OutboundConfig partner = OutboundConfig.readAll(lookup).get("partner");

    assertThat(partner.policy().limits()).containsExactly(Limit.parse("5/s"));
    assertThat(partner.upstreams()).containsExactly("https://api.partner.example:443");
  }

  @Test
  void aVariableOfNoListedOutboundPolicyFailsNamingIt() {
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        "limiter.outbounds", "partner",
                        "LIMITER_OUTBOUND_PARTNR_LIMITS", "5/s",
                        "limiter.outbound.partner.algorithm", "token-bucket",
                        "limiter.outbound.partner.limits", "5/s",
                        "limiter.outbound.partner.upstreams", "https://api.partner.example")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("LIMITER_OUTBOUND_PARTNR_LIMITS")
        .hasMessageContaining("limiter.outbounds");
    assertThatThrownBy(() -> read(Map.of("limiter.outbounds", "partner, 9 lives")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.outbounds")
        .hasMessageContaining("'9 lives'");
  }
}
