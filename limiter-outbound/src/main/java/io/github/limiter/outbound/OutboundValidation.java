package io.github.limiter.outbound;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.enterprise.inject.spi.Extension;

/**
 * Reads and checks the application's outbound policies when it is deployed, so that a bad value
 * fails the deployment, naming the key and the value, and not the first call; closes their store
 * when it is undeployed. A CDI portable extension: a server with CDI finds it in the jar.
 */
public final class OutboundValidation implements Extension {

  void validate(@Observes AfterDeploymentValidation deployment) {
    try {
      Outbound.shared();
    } catch (RuntimeException e) {
      deployment.addDeploymentProblem(e);
    }
  }

  void close(@Observes BeforeShutdown shutdown) {
    Outbound.closeShared();
  }
}
