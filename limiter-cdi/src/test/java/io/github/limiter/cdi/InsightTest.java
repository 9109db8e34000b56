package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.internal.insight.Insight;
import io.github.limiter.internal.insight.KeyCount;
import io.github.limiter.internal.insight.PolicyScope;
import io.github.limiter.internal.insight.TopKeysView;
import io.github.limiter.internal.insight.Traffic;
import io.github.limiter.internal.runtime.LimiterRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.stream.LongStream;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code @Limited} feeds the top keys from the admission step it shares with the filter. */
class InsightTest {

  @AfterEach
  void release() {
    TestConfig.clear();
  }

  private static WeldContainer container(String... extra) {
    String[] base = {
      "limiter.policy.api.algorithm", "sliding-window-log",
      "limiter.policy.api.limits", "2/m"
    };
    String[] all = new String[base.length + extra.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    TestConfig.use(TestConfig.of(all));
    return new Weld()
        .disableDiscovery()
        .addBuildCompatibleExtensions(LimitedBuildExtension.class)
        .beanClasses(TestStore.class, Api.class)
        .initialize();
  }

  @Test
  void limitedCallsAreCountedInTheTopKeysWhenEnabled() {
    try (WeldContainer container = container("limiter.top-keys.enabled", "true")) {
      Api api = container.select(Api.class).get();

      // When alice calls 4 times (2 rejected) and bob once
      for (int i = 0; i < 4; i++) {
        if (i < 2) {
          api.call("alice");
        } else {
          assertThatThrownBy(() -> api.call("alice"))
              .isInstanceOf(RateLimitExceededException.class);
        }
      }
      api.call("bob");

      // Then alice leads both lists
      TopKeysView top =
          container
              .select(LimiterRuntime.class)
              .get()
              .insight()
              .topKeys()
              .orElseThrow()
              .view("api");
      assertThat(top.byRequests())
          .containsExactly(new KeyCount("a:alice", 4, 0), new KeyCount("a:bob", 1, 0));
      assertThat(top.byRejections()).containsExactly(new KeyCount("a:alice", 2, 0));
    }
  }

  @Test
  void topKeysAreOffByDefault() {
    try (WeldContainer container = container()) {
      container.select(Api.class).get().call("alice");

      assertThat(container.select(LimiterRuntime.class).get().insight().topKeys()).isEmpty();
    }
  }

  @Test
  void eachPolicySaysItsMethodsAndTheirKeysAndCountsTheirTrafficPerSecond() {
    try (WeldContainer container = container("limiter.policy.api.key", "principal")) {
      Api api = container.select(Api.class).get();
      api.call("alice");
      api.call("alice");
      assertThatThrownBy(() -> api.call("alice")).isInstanceOf(RateLimitExceededException.class);

      Insight insight = container.select(LimiterRuntime.class).get().insight();

      // Then the policy names its methods, with the key of each: the method's own or the policy's
      assertThat(insight.scope("api"))
          .hasValue(
              new PolicyScope(
                  List.of(),
                  List.of(Api.class.getName() + "#call", Api.class.getName() + "#plain"),
                  List.of("param:user", "principal"),
                  "remote-address"));
      assertThat(insight.scope("other")).isEmpty();
      // And its traffic counts the 2 admitted and the 1 rejected call
      Traffic.Series series = insight.traffic().series("api");
      assertThat(LongStream.of(series.admitted()).sum()).isEqualTo(2);
      assertThat(LongStream.of(series.rejected()).sum()).isEqualTo(1);
    }
  }

  @ApplicationScoped
  static class Api {
    @Limited("api")
    public void plain() {}

    @Limited(value = "api", key = "param:user")
    public void call(String user) {}
  }
}
