package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.inject.spi.DeploymentException;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The deployment check in a real CDI container (Weld): a bad outbound setting fails the deployment,
 * naming the key and the value; good ones are read once, at deployment, and closed at shutdown.
 * Without MicroProfile Config on the class path, the settings are system properties.
 */
class OutboundValidationTest {

  private static final String BASE = "limiter.outbound.validated.";

  @AfterEach
  void clear() {
    System.clearProperty(BASE + "algorithm");
    System.clearProperty(BASE + "limits");
    System.clearProperty(BASE + "max-wait");
  }

  private static Weld weld() {
    return new Weld()
        .disableDiscovery()
        .addExtension(new OutboundValidation())
        .beanClasses(Caller.class);
  }

  /** An application bean: the deployment needs one. */
  static class Caller {}

  @Test
  void aBadOutboundSettingFailsTheDeploymentNamingTheKeyAndTheValue() {
    System.setProperty(BASE + "algorithm", "token-bucket");
    System.setProperty(BASE + "limits", "10/s");
    System.setProperty(BASE + "max-wait", "forever");

    assertThatThrownBy(() -> weld().initialize().close())
        .isInstanceOf(DeploymentException.class)
        .hasMessageContaining(BASE + "max-wait")
        .hasMessageContaining("forever");
  }

  @Test
  void goodSettingsAreReadAtDeployment() {
    System.setProperty(BASE + "algorithm", "token-bucket");
    System.setProperty(BASE + "limits", "10/s");

    try (WeldContainer container = weld().initialize()) {
      assertThat(Outbound.shared().names()).containsExactly("validated");
      assertThat(Outbound.shared())
          .isSameAs(container.select(OutboundValidation.class).get().outbound());
      assertThat(container.isRunning()).isTrue();
    }
  }
}
