package io.github.limiter.it.harness;

import org.jboss.arquillian.container.test.spi.client.deployment.ApplicationArchiveProcessor;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Registers {@link LimiterArchiveProcessor}, {@link PayaraLogPerDeployment} and {@link
 * PayaraLeftovers} with Arquillian (see META-INF/services).
 */
public class LimiterArquillianExtension implements LoadableExtension {

  @Override
  public void register(ExtensionBuilder builder) {
    builder.service(ApplicationArchiveProcessor.class, LimiterArchiveProcessor.class);
    builder.observer(PayaraLogPerDeployment.class);
    builder.observer(PayaraLeftovers.class);
  }
}
