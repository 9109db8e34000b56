package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.internal.live.LiveLimits;
import io.github.limiter.internal.runtime.LimiterRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.util.Optional;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The policies of {@code @Limited} methods are live from the application's start: an operator can
 * list and change them before the first call, as after a restart during an incident.
 */
class LiveFromTheStartTest {

  @AfterEach
  void release() {
    TestConfig.clear();
  }

  private static WeldContainer container(Class<?>... beans) {
    TestConfig.use(
        TestConfig.of(
            "limiter.policy.fresh-llm.algorithm", "fixed-window",
            "limiter.policy.fresh-llm.limits", "5/1h"));
    return new Weld()
        .disableDiscovery()
        .addBuildCompatibleExtensions(LimitedBuildExtension.class)
        .beanClasses(beans)
        .addBeanClass(TestStore.class)
        .initialize();
  }

  /** The application's runtime, if it was built: never built by asking. */
  private static Optional<LimiterRuntime> built(WeldContainer container) {
    BeanManager beans = container.getBeanManager();
    Bean<?> bean = beans.resolve(beans.getBeans(LimiterRuntime.class));
    return Optional.ofNullable((LimiterRuntime) beans.getContext(bean.getScope()).get(bean));
  }

  @Test
  void aLimitedPolicyIsLiveBeforeTheFirstCall() {
    try (WeldContainer container = container(Llm.class)) {
      // Given a started application whose @Limited method was never called
      LiveLimits live = built(container).orElseThrow().live();
      assertThat(live.policies().version("fresh-llm").orElseThrow().number()).isZero();

      // When an operator lowers its limit to 1 an hour
      live.policies().change("fresh-llm", "1/1h");

      // Then the first calls decide under it
      Llm llm = container.select(Llm.class).get();
      llm.complete("acme");
      assertThatThrownBy(() -> llm.complete("acme")).isInstanceOf(RateLimitExceededException.class);
    }
  }

  @Test
  void anApplicationWithoutLimitedMethodsBuildsNoRuntime() {
    try (WeldContainer container = container(Plain.class)) {
      assertThat(container.select(Plain.class).get().hello()).isEqualTo("hello");
      assertThat(built(container)).isEmpty();
    }
  }

  @ApplicationScoped
  static class Llm {
    @Limited(value = "fresh-llm", key = "param:0")
    public void complete(String apiKey) {}
  }

  @ApplicationScoped
  static class Plain {
    public String hello() {
      return "hello";
    }
  }
}
