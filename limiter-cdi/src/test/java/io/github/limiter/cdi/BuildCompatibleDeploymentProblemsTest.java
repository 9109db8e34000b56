package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import java.util.ServiceLoader;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * The same mistakes, with the same messages, on a container that runs only the Build Compatible
 * Extension (as Quarkus ArC does): Weld SE with {@link LimitedBuildExtension} and without the
 * portable extension. Unknown key resolvers and store problems fail the start instead of the
 * validation ({@link #beanProblemType}).
 */
class BuildCompatibleDeploymentProblemsTest extends DeploymentProblemsTest {

  @Override
  Weld weld() {
    return new Weld()
        .disableDiscovery()
        .addBuildCompatibleExtensions(UnskippedBuildExtension.class);
  }

  /**
   * A Build Compatible Extension has no bean instances before the start: a key resolver's name is
   * what its instance says, and the store is made from configuration that may change until then. So
   * those two fail the application's start, with the same messages, rather than the validation.
   */
  @Override
  Class<? extends Throwable> beanProblemType() {
    return RuntimeException.class;
  }

  @Test
  void theBuildCompatibleExtensionIsAServiceAndFindsTheSites() {
    assertThat(ServiceLoader.load(BuildCompatibleExtension.class))
        .anyMatch(LimitedBuildExtension.class::isInstance);
    TestConfig.use(
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "1/s"));
    try (WeldContainer container = weld().beanClasses(Valid.class, TestStore.class).initialize()) {
      LimiterDeployment deployment = container.select(LimiterDeployment.class).get();
      assertThat(deployment).isInstanceOf(FoundSites.class);
      assertThat(deployment.sites()).extracting(site -> site.method().getName()).contains("place");
      Valid valid = container.select(Valid.class).get();
      valid.place();
      assertThat(catchThrowable(valid::place)).isInstanceOf(RateLimitExceededException.class);
    }
  }
}
