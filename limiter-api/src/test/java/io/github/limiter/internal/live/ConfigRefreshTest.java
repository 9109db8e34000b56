package io.github.limiter.internal.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import io.github.limiter.Limit;
import io.github.limiter.PolicyStore;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** limiter.config.refresh: changed limits in the configuration become live, bad ones never do. */
class ConfigRefreshTest {

  final Map<String, String> properties =
      new HashMap<>(
          Map.of(
              "limiter.policy.api.algorithm", "fixed-window",
              "limiter.policy.api.limits", "10/1h",
              "limiter.policy.api.key", "remote-address",
              "limiter.policy.api.plan.pro.limits", "100/1h",
              "limiter.policy.api.plan-source", "header:X-Plan"));

  final LiveLimits live =
      new LiveLimits(InMemoryStore.builder().clock(ManualClock.random(3)).build());
  final List<LogRecord> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
  final Handler handler =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          logged.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  ConfigRefresh refresh;
  PolicyStore api;

  @BeforeEach
  void deploy() {
    Logger.getLogger(ConfigRefresh.class.getName()).addHandler(handler);
    LimiterConfig deployed = read();
    api = live.store().bind(deployed.policy("api").orElseThrow().policy());
    live.store().bind(deployed.policy("api").orElseThrow().plans().byName().get("pro"));
    refresh = new ConfigRefresh(live.policies(), deployed, this::read);
  }

  @AfterEach
  void removeHandler() {
    Logger.getLogger(ConfigRefresh.class.getName()).removeHandler(handler);
  }

  LimiterConfig read() {
    return LimiterConfig.from(ConfigLookup.of(properties));
  }

  @Test
  void aChangedLimitBecomesLiveAndTheKeyKeepsItsCount() {
    for (int i = 0; i < 6; i++) {
      assertThat(api.decide("k", 1).isAllowed()).isTrue();
    }
    properties.put("limiter.policy.api.limits", "8/1h");
    properties.put("limiter.policy.api.plan.pro.limits", "50/1h");

    assertThat(refresh.run()).isEqualTo(2);

    assertThat(live.policies().version("api").orElseThrow().number()).isEqualTo(1);
    assertThat(live.policies().version("api.plan.pro").orElseThrow().policy().limits())
        .containsExactly(Limit.of(50, Duration.ofHours(1)));
    assertThat(api.decide("k", 1).remaining()).isEqualTo(1);
    assertThat(refresh.run()).as("nothing changed since").isZero();
  }

  @Test
  void aBadValueIsRefusedWithTheDeploymentsMessageAndEveryLimitStays() {
    properties.put("limiter.policy.api.limits", "8/1h");
    properties.put("limiter.policy.api.plan.pro.limits", "lots");
    assertThatThrownBy(this::read)
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.policy.api.plan.pro.limits")
        .hasMessageContaining("lots");

    assertThat(refresh.run()).isZero();

    assertThat(live.policies().version("api").orElseThrow().number()).isZero();
    assertThat(logged)
        .anySatisfy(
            r ->
                assertThat(r.getParameters()[0].toString())
                    .contains("limiter.policy.api.plan.pro.limits")
                    .contains("lots"));
  }

  @Test
  void anOperatorsChangeStaysUntilTheConfiguredValueChanges() {
    live.policies().change("api", "3/1h");

    assertThat(refresh.run()).isZero();
    assertThat(live.policies().version("api").orElseThrow().policy().limits())
        .containsExactly(Limit.of(3, Duration.ofHours(1)));

    properties.put("limiter.policy.api.limits", "12/1h");
    assertThat(refresh.run()).isEqualTo(1);
    assertThat(live.policies().version("api").orElseThrow().number()).isEqualTo(2);
  }

  @Test
  void anotherAlgorithmNeedsARedeploy() {
    properties.put("limiter.policy.api.algorithm", "sliding-window-counter");
    properties.put("limiter.policy.api.limits", "8/1h");

    assertThat(refresh.run()).isZero();

    assertThat(live.policies().version("api").orElseThrow().number()).isZero();
    assertThat(logged).anySatisfy(r -> assertThat(r.getMessage()).contains("needs a redeploy"));
  }

  @Test
  void theRefreshPeriodIsOffByDefaultAndCheckedAtDeployment() {
    assertThat(LimiterConfig.refreshPeriod(ConfigLookup.of(properties))).isEmpty();
    assertThat(
            LimiterConfig.refreshPeriod(ConfigLookup.of(Map.of("limiter.config.refresh", "30s"))))
        .contains(Duration.ofSeconds(30));
    properties.put("limiter.config.refresh", "10ms");
    assertThatThrownBy(this::read)
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.config.refresh")
        .hasMessageContaining("10ms");
    properties.put("limiter.config.refresh", "30s");
    properties.put("limiter.config.refesh", "30s");
    assertThatThrownBy(this::read)
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("limiter.config.refesh");
  }
}
