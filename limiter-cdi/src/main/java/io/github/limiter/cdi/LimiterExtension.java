package io.github.limiter.cdi;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;

/**
 * The checks of {@link Limited} that need the application's beans, at deployment validation: that
 * each key resolver a site names exists, and that the configured store can be created. Everything
 * else is the {@link LimitedBuildExtension}'s, on every container.
 *
 * <p>Only the containers that run portable extensions use it: Weld (Payara, WildFly) and Open
 * Liberty. WildFly needs it: a deployment in its deployments directory keeps serving when only its
 * start fails, so the check must fail the validation. Quarkus runs none, and the same checks fail
 * its start ({@link DeploymentChecks#atStart}).
 */
public class LimiterExtension implements Extension {

  /** Creates the extension; containers find it through {@code META-INF/services}. */
  public LimiterExtension() {}

  void validate(@Observes AfterDeploymentValidation event, BeanManager beans) {
    Bean<?> bean = beans.resolve(beans.getBeans(LimiterDeployment.class));
    if (bean == null) {
      return; // no Build Compatible Extension ran: the start checks it
    }
    LimiterDeployment deployment =
        (LimiterDeployment)
            beans.getReference(bean, LimiterDeployment.class, beans.createCreationalContext(bean));
    DeploymentChecks.atValidationWithBeans(deployment, beans).forEach(event::addDeploymentProblem);
  }
}
