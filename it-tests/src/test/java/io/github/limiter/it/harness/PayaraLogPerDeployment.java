package io.github.limiter.it.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.jboss.arquillian.container.spi.event.container.AfterUnDeploy;
import org.jboss.arquillian.container.spi.event.container.BeforeDeploy;
import org.jboss.arquillian.core.api.annotation.Observes;

/**
 * Payara Micro appends every boot to the same {@code --logtofile} file. This keeps one log per
 * deployment: the current JVM writes {@code payara.log*}, and after undeploy that file is kept as
 * {@code payara-<archive>.log}, so that {@link ServerLog} shows only the deployment under test.
 */
public class PayaraLogPerDeployment {

  public void beforeDeploy(@Observes BeforeDeploy event) {
    if (Settings.isPayara()) {
      keepAs("payara-leftover.log");
    }
  }

  public void afterUndeploy(@Observes AfterUnDeploy event) {
    if (Settings.isPayara()) {
      keepAs(
          "payara-"
              + event.getDeployment().getArchive().getName().replaceFirst("\\.war$", "")
              + ".log");
    }
  }

  private static void keepAs(String name) {
    ServerLog.file()
        .ifPresent(
            log -> {
              try {
                Files.move(log, log.resolveSibling(name), StandardCopyOption.REPLACE_EXISTING);
              } catch (IOException e) {
                System.out.println("cannot keep " + log + " as " + name + ": " + e);
              }
            });
  }
}
