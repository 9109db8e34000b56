package io.github.limiter.internal.config;

import static io.github.limiter.internal.config.LimiterConfigTest.api;
import static io.github.limiter.internal.config.LimiterConfigTest.failure;
import static io.github.limiter.internal.config.LimiterConfigTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The lease-mode keys of a policy: opt-in, validated, and only where the bound is proven. */
class LeaseConfigTest {

  @Test
  void leaseModeIsOffByDefault() {
    PolicyConfig api = read(api("token-bucket", "10/s")).policy("api").orElseThrow();

    assertThat(api.lease()).isEqualTo(PolicyConfig.LeaseMode.OFF);
    assertThat(api.lease().enabled()).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"token-bucket, on", "fixed-window, ON", "token-bucket, true"})
  void leaseModeTurnsOnWithTheDefaultsForTheTokenBucketAndTheFixedWindow(
      String algorithm, String value) {
    Map<String, String> properties = api(algorithm, "100/s");
    properties.put("limiter.policy.api.lease", value);

    PolicyConfig.LeaseMode lease = read(properties).policy("api").orElseThrow().lease();

    assertThat(lease)
        .isEqualTo(
            PolicyConfig.LeaseMode.on(
                Duration.ofMillis(200), Duration.ofSeconds(2), Integer.MAX_VALUE, 0.25));
  }

  @Test
  void everyLeaseKeyIsRead() {
    Map<String, String> properties = api("token-bucket", "100/s");
    properties.putAll(
        Map.of(
            "limiter.policy.api.lease", "on",
            "limiter.policy.api.lease-refresh", "50ms",
            "limiter.policy.api.lease-ttl", "5s",
            "limiter.policy.api.lease-max-slice", "40",
            "limiter.policy.api.lease-low-water", "0.5"));

    PolicyConfig.LeaseMode lease = read(properties).policy("api").orElseThrow().lease();

    assertThat(lease)
        .isEqualTo(
            PolicyConfig.LeaseMode.on(Duration.ofMillis(50), Duration.ofSeconds(5), 40, 0.5));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"sliding-window-counter", "sliding-window-log", "leaky-bucket"})
  void leaseModeIsRejectedWhereItsBoundIsNotProven(String algorithm) {
    Map<String, String> properties = api(algorithm, "100/s");
    properties.put("limiter.policy.api.lease", "on");

    ConfigException e = failure(properties, "limiter.policy.api.lease", "on");

    assertThat(e.getMessage()).contains("token-bucket and fixed-window only").contains(algorithm);
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "lease            | maybe | expected on or off",
        "lease-refresh    | soon  | expected a duration",
        "lease-refresh    | 5ms   | between 10ms and 1h",
        "lease-refresh    | 2h    | between 10ms and 1h",
        "lease-ttl        | 100ms | between limiter.policy.api.lease-refresh (200ms) and 1h",
        "lease-ttl        | 2h    | and 1h",
        "lease-max-slice  | 0     | expected an integer between 1 and 2147483647",
        "lease-max-slice  | lots  | expected an integer",
        "lease-low-water  | 1     | at least 0 and below 1",
        "lease-low-water  | -0.1  | at least 0 and below 1",
        "lease-low-water  | half  | at least 0 and below 1"
      })
  void aBadLeaseValueNamesTheKeyAndTheValue(String suffix, String value, String expected) {
    Map<String, String> properties = api("token-bucket", "100/s");
    properties.put("limiter.policy.api.lease", "on");
    properties.put("limiter.policy.api." + suffix, value);

    ConfigException e = failure(properties, "limiter.policy.api." + suffix, value);

    assertThat(e.getMessage()).contains(expected);
  }

  @Test
  void aSliceSmallerThanOneRequestIsRejected() {
    Map<String, String> properties = api("fixed-window", "100/s");
    properties.put("limiter.policy.api.permits", "5");
    properties.put("limiter.policy.api.lease", "on");
    properties.put("limiter.policy.api.lease-max-slice", "4");

    ConfigException e = failure(properties, "limiter.policy.api.lease-max-slice", "4");

    assertThat(e.getMessage()).contains("smaller than one request's permits (5)");
  }

  @Test
  void tuningWithoutLeaseModeIsRejectedAllAtOnce() {
    Map<String, String> properties = api("token-bucket", "100/s");
    properties.put("limiter.policy.api.lease-refresh", "1s");
    properties.put("limiter.policy.api.lease-low-water", "0.1");

    ConfigException e = failure(properties, "limiter.policy.api.lease-refresh", "1s");

    assertThat(e.problems()).hasSize(2);
    assertThat(e.getMessage())
        .contains("limiter.policy.api.lease-refresh: applies only with limiter.policy.api.lease=on")
        .contains("limiter.policy.api.lease-low-water: applies only with")
        .contains("was '0.1'");
  }

  @Test
  void theLeaseRecordValidatesItself() {
    assertThatThrownBy(
            () -> PolicyConfig.LeaseMode.on(Duration.ofSeconds(2), Duration.ofSeconds(1), 10, 0.25))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ttl must be between the refresh interval (2000ms) and 1h");
    assertThatThrownBy(
            () -> PolicyConfig.LeaseMode.on(Duration.ofSeconds(1), Duration.ofSeconds(2), 10, 1.0))
        .hasMessageContaining("low water must be a fraction");
  }
}
