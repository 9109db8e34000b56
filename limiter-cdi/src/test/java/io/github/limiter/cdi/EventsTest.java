package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@EnableWeld
class EventsTest {

  @BeforeAll
  static void configure() {
    TestConfig.use(
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10/m",
            "limiter.policy.api.key", "constant",
            "limiter.policy.trial.algorithm", "fixed-window",
            "limiter.policy.trial.limits", "1/m",
            "limiter.policy.trial.key", "constant",
            "limiter.policy.trial.dry-run", "true",
            "limiter.events.near-limit", "0.3"));
  }

  @AfterAll
  static void release() {
    TestConfig.clear();
  }

  @WeldSetup
  WeldInitiator weld =
      WeldInitiator.from(
              WeldInitiator.createWeld()
                  .beanClasses(TestStore.class, Service.class, Recorder.class)
                  .addBuildCompatibleExtensions(LimitedBuildExtension.class))
          .build();

  @Inject Service service;

  @Inject Recorder recorder;

  @Inject LimitedCalls runtime;

  @Test
  void everyObservedEventIsFired() throws InterruptedException {
    // Given 'api' admits 10 a minute, and near-limit is 30% (3 permits or fewer left)
    for (int i = 0; i < 10; i++) {
      service.call("k" + i);
    }
    assertThatThrownBy(() -> service.call("k")).isInstanceOf(RateLimitExceededException.class);

    // Then each admission was announced, the last three as near the limit
    assertThat(recorder.admitted()).hasSize(10);
    assertThat(recorder.admitted().get(0).decision().remaining()).isEqualTo(9);
    assertThat(recorder.admitted().get(0).policy().name()).isEqualTo("api");
    assertThat(recorder.admitted().get(0).key()).isEqualTo("c:global"); // key = constant
    assertThat(recorder.admitted().get(0).method().getName()).isEqualTo("call");
    assertThat(recorder.nearLimit())
        .extracting(e -> e.decision().remaining())
        .containsExactly(3L, 2L, 1L, 0L);
    // and the rejection, to synchronous and asynchronous observers alike
    assertThat(recorder.rejected())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.policy().name()).isEqualTo("api");
              assertThat(e.decision().isAllowed()).isFalse();
              assertThat(e.dryRun()).isFalse();
            });
    assertThat(recorder.asyncRejections().await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void parameterKeysHaveTheirOwnPrefix() {
    service.byUser(" alice ");
    assertThat(recorder.admitted())
        .singleElement()
        .satisfies(e -> assertThat(e.key()).isEqualTo("a:alice"));
  }

  @Test
  void dryRunLetsAWouldBeRejectionPassAndSaysSo() {
    service.trial();
    service.trial(); // over the limit, but dry-run

    assertThat(recorder.rejected())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.policy().name()).isEqualTo("trial");
              assertThat(e.dryRun()).isTrue();
            });
  }

  @Test
  void observersAreLookedUpOnce() {
    assertThat(runtime.events().rejectedObserved()).isTrue();
    assertThat(runtime.events().admittedObserved()).isTrue();
    assertThat(runtime.events().nearLimitObserved()).isTrue();
  }

  @Test
  void unobservedEventsAreNotFired() {
    TestConfig.use(
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "1/m",
            "limiter.policy.api.key", "constant",
            "limiter.policy.trial.algorithm", "fixed-window",
            "limiter.policy.trial.limits", "1/m"));
    try (WeldContainer container =
        new Weld()
            .disableDiscovery()
            .addBuildCompatibleExtensions(LimitedBuildExtension.class)
            .beanClasses(TestStore.class, Service.class)
            .initialize()) {
      Service unobserved = container.select(Service.class).get();
      unobserved.call("a");
      assertThatThrownBy(() -> unobserved.call("b")).isInstanceOf(RateLimitExceededException.class);
      Events events = container.select(LimitedCalls.class).get().events();
      assertThat(events.rejectedObserved()).isFalse();
      assertThat(events.admittedObserved()).isFalse();
      assertThat(events.nearLimitObserved()).isFalse();
    } finally {
      configure();
    }
  }

  @ApplicationScoped
  static class Service {
    @Limited("api")
    public String call(String what) {
      return what;
    }

    @Limited("trial")
    public void trial() {}

    @Limited(value = "api", key = "param:user")
    public void byUser(String user) {}
  }

  /**
   * Records what it observes; its lists are read through methods, as the test holds a client proxy.
   */
  @ApplicationScoped
  static class Recorder {
    private final List<RateLimitAdmitted> admitted = new CopyOnWriteArrayList<>();
    private final List<RateLimitNearLimit> nearLimit = new CopyOnWriteArrayList<>();
    private final List<RateLimitRejected> rejected = new CopyOnWriteArrayList<>();
    private final CountDownLatch asyncRejections = new CountDownLatch(1);

    List<RateLimitAdmitted> admitted() {
      return admitted;
    }

    List<RateLimitNearLimit> nearLimit() {
      return nearLimit;
    }

    List<RateLimitRejected> rejected() {
      return rejected;
    }

    CountDownLatch asyncRejections() {
      return asyncRejections;
    }

    void admitted(@Observes RateLimitAdmitted event) {
      admitted.add(event);
    }

    void nearLimit(@Observes RateLimitNearLimit event) {
      nearLimit.add(event);
    }

    void rejected(@Observes RateLimitRejected event) {
      rejected.add(event);
    }

    void rejectedLater(@ObservesAsync RateLimitRejected event) {
      asyncRejections.countDown();
    }
  }
}
