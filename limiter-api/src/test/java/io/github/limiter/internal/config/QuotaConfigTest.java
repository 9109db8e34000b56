package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import io.github.limiter.Limit;
import io.github.limiter.spi.ConfigLookup;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Calendar quotas in configuration: limits, zone and anchor day, plans; bad values named. */
class QuotaConfigTest {

  static LimiterConfig config(String... pairs) {
    Map<String, String> map = new HashMap<>();
    map.put("limiter.policy.api.algorithm", "token-bucket");
    map.put("limiter.policy.api.limits", "100/s burst=200, 10000/month");
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return LimiterConfig.from(ConfigLookup.of(map));
  }

  @Test
  void quotasTakeThePolicysZoneAndAnchorDayAndPlansCarryTheirOwn() {
    LimiterConfig config =
        config(
            "limiter.policy.api.quota.time-zone", "Europe/Berlin",
            "limiter.policy.api.quota.anchor-day", "15",
            "limiter.policy.api.key", "principal",
            "limiter.policy.api.plan.pro.limits", "1000/s burst=2000, 1000000/month",
            "limiter.policy.api.plan-source", "role:pro");
    PolicyConfig api = config.policy("api").orElseThrow();
    Limit quota = api.policy().limits().get(1);
    assertThat(quota.calendar()).isEqualTo(ChronoUnit.MONTHS);
    assertThat(quota.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(quota.anchorDay()).isEqualTo(15);
    assertThat(api.policy().limits().get(0).isQuota()).isFalse();
    Limit pro = api.plans().byName().get("pro").limits().get(1);
    assertThat(pro.permits()).isEqualTo(1_000_000);
    assertThat(pro.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(pro.anchorDay()).isEqualTo(15);
    assertThat(api.quota().perRequest()).isFalse();
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource({
    "quota.time-zone, Europe/Berlinn",
    "quota.time-zone, resolver:",
    "quota.anchor-day, 0",
    "quota.anchor-day, 32",
    "quota.anchor-day, first",
  })
  void aBadZoneOrAnchorDayFailsNamingKeyAndValue(String key, String value) {
    assertThatThrownBy(() -> config("limiter.policy.api." + key, value))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.policy.api." + key)
        .hasMessageContaining("'" + value + "'");
  }

  @Test
  void aQuotaHasNoBurstAndNoLeaseMode() {
    assertThatThrownBy(() -> config("limiter.policy.api.limits", "10000/month burst=20"))
        .hasMessageContaining("limiter.policy.api.limits")
        .hasMessageContaining("no burst");
    assertThatThrownBy(() -> config("limiter.policy.api.lease", "on"))
        .hasMessageContaining("limiter.policy.api.lease")
        .hasMessageContaining("calendar quota");
  }
}
