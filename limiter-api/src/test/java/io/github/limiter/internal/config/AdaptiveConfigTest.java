package io.github.limiter.internal.config;

import static io.github.limiter.internal.config.LimiterConfigTest.api;
import static io.github.limiter.internal.config.LimiterConfigTest.failure;
import static io.github.limiter.internal.config.LimiterConfigTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An adaptive concurrency limit's keys, and criticality: read, checked, and named when bad. */
class AdaptiveConfigTest {

  @Test
  void anAdaptiveLimitHasSafeDefaultsAndItsCeilingStandsForItsLimit() {
    PolicyConfig api = read(api("concurrency", "adaptive")).policy("api").orElseThrow();

    assertThat(api.adaptive()).isTrue();
    assertThat(api.overload().adaptive()).isEqualTo(new PolicyConfig.Adaptive(1, 1000, 20, 1.5));
    assertThat(api.overload().criticality()).isEqualTo(PolicyConfig.CriticalitySource.DEFAULT);
    assertThat(api.overload().criticalShare()).isEqualTo(0.2);
    assertThat(api.policy().limits()).containsExactly(Limit.of(1000, Duration.ofSeconds(1)));
  }

  @Test
  void everyAdaptiveKeyIsRead() {
    Map<String, String> properties = api("concurrency", "ADAPTIVE");
    properties.putAll(
        Map.of(
            "limiter.policy.api.adaptive-floor", "4",
            "limiter.policy.api.adaptive-ceiling", "200",
            "limiter.policy.api.adaptive-initial", "10",
            "limiter.policy.api.adaptive-tolerance", "2",
            "limiter.policy.api.criticality", "header:X-Criticality",
            "limiter.policy.api.critical-share", "0.25",
            "limiter.policy.api.retry-after", "2s"));

    PolicyConfig api = read(properties).policy("api").orElseThrow();

    assertThat(api.overload().adaptive()).isEqualTo(new PolicyConfig.Adaptive(4, 200, 10, 2.0));
    assertThat(api.overload().criticality().source().toString()).isEqualTo("header:X-Criticality");
    assertThat(api.overload().criticalShare()).isEqualTo(0.25);
    assertThat(api.policy().limits()).containsExactly(Limit.of(200, Duration.ofSeconds(2)));
  }

  @Test
  void theInitialLimitsDefaultIsKeptWithinTheFloorAndTheCeiling() {
    Map<String, String> properties = api("concurrency", "adaptive");
    properties.put("limiter.policy.api.adaptive-ceiling", "8");

    assertThat(read(properties).policy("api").orElseThrow().overload().adaptive().initial())
        .isEqualTo(8);
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "adaptive-floor | 0",
        "adaptive-ceiling | many",
        "adaptive-tolerance | 1",
        "adaptive-tolerance | 1.0",
        "critical-share | 0.5",
        "critical-share | -0.1",
        "criticality | urgent",
        "criticality | param:x",
      })
  void aBadValueIsNamedWithItsKey(String key, String value) {
    Map<String, String> properties = api("concurrency", "adaptive");
    properties.put("limiter.policy.api." + key, value);

    failure(properties, "limiter.policy.api." + key, value);
  }

  @Test
  void aCeilingBelowTheFloorOrAnInitialLimitOutsideThemIsNamed() {
    Map<String, String> below = api("concurrency", "adaptive");
    below.put("limiter.policy.api.adaptive-floor", "10");
    below.put("limiter.policy.api.adaptive-ceiling", "5");
    assertThat(failure(below, "limiter.policy.api.adaptive-ceiling", "5").getMessage())
        .contains("limiter.policy.api.adaptive-floor (10)");

    Map<String, String> outside = api("concurrency", "adaptive");
    outside.put("limiter.policy.api.adaptive-ceiling", "50");
    outside.put("limiter.policy.api.adaptive-initial", "60");
    failure(outside, "limiter.policy.api.adaptive-initial", "60");
  }

  @Test
  void anAdaptiveKeyWithoutAnAdaptiveLimitIsAnError() {
    Map<String, String> properties = api("concurrency", "8");
    properties.put("limiter.policy.api.adaptive-ceiling", "50");

    assertThat(failure(properties, "limiter.policy.api.adaptive-ceiling", "50").getMessage())
        .contains("limits=adaptive");
  }

  @Test
  void anAdaptiveLimitHasNoKeyAndNoPlans() {
    Map<String, String> keyed = api("concurrency", "adaptive");
    keyed.put("limiter.policy.api.key", "header:X-Api-Key");
    assertThat(failure(keyed, "limiter.policy.api.key", "header:X-Api-Key").getMessage())
        .contains("per node");

    Map<String, String> planned = api("concurrency", "adaptive");
    planned.put("limiter.policy.api.plan.pro.limits", "50");
    planned.put("limiter.policy.api.plan-source", "header:X-Plan");
    assertThat(failure(planned, "limiter.policy.api.limits", "adaptive").getMessage())
        .contains("[pro]");
  }

  @Test
  void criticalityAppliesToConcurrencyLimitsOnly() {
    Map<String, String> properties = api("token-bucket", "10/s");
    properties.put("limiter.policy.api.criticality", "critical");

    assertThat(failure(properties, "limiter.policy.api.criticality", "critical").getMessage())
        .contains("concurrency");
  }

  @Test
  void aFixedConcurrencyLimitTakesACriticality() {
    Map<String, String> properties = api("concurrency", "8");
    properties.put("limiter.policy.api.criticality", "sheddable");

    PolicyConfig api = read(properties).policy("api").orElseThrow();

    assertThat(api.adaptive()).isFalse();
    assertThat(api.overload().criticality().level()).isEqualTo(Criticality.SHEDDABLE);
    assertThat(api.overload().criticalShare()).isZero();
  }

  @Test
  void aRouteTakesACriticalityAndABadOneIsNamed() {
    Map<String, String> properties = api("concurrency", "adaptive");
    properties.put("limiter.route.pay.pattern", "/pay/*");
    properties.put("limiter.route.pay.policies", "api");
    properties.put("limiter.route.pay.criticality", "critical");

    assertThat(read(properties).routes().get(0).criticality()).isEqualTo(Criticality.CRITICAL);

    properties.put("limiter.route.pay.criticality", "vip");
    failure(properties, "limiter.route.pay.criticality", "vip");
  }

  @Test
  void theLevelsLeaveTheirSharesOfTheLimitFree() {
    assertThat(Criticality.CRITICAL.headroom(10, 0.1)).isZero();
    assertThat(Criticality.DEFAULT.headroom(10, 0.1)).isEqualTo(1);
    assertThat(Criticality.SHEDDABLE.headroom(10, 0.1)).isEqualTo(2);
    // a share rounds up, and a small limit keeps one permit for every level
    assertThat(Criticality.SHEDDABLE.headroom(3, 0.1)).isEqualTo(2);
    assertThat(Criticality.SHEDDABLE.headroom(1, 0.1)).isZero();
    assertThat(Criticality.DEFAULT.headroom(10, 0)).isZero();
  }
}
