package io.github.limiter.cdi;

import org.jboss.weld.environment.se.Weld;

/**
 * The same mistakes, with the same messages, where the container also runs the portable {@link
 * LimiterExtension} (Weld on Payara and WildFly, Open Liberty): a problem that needs beans fails
 * the deployment's validation instead of the start.
 */
class PortableDeploymentProblemsTest extends DeploymentProblemsTest {

  @Override
  Weld weld() {
    return super.weld().addExtension(new LimiterExtension());
  }

  /** Weld wraps the problems of the validation in its own DeploymentException. */
  @Override
  Class<? extends Throwable> beanProblemType() {
    return org.jboss.weld.exceptions.DeploymentException.class;
  }
}
