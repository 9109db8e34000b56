package io.github.limiter.it.harness;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.arquillian.container.spi.event.container.BeforeDeploy;
import org.jboss.arquillian.core.api.annotation.Observes;
import org.jboss.arquillian.test.spi.event.suite.AfterSuite;

/**
 * Makes sure a Payara Micro JVM of an earlier deployment is gone before the next one boots, and
 * that none outlives the suite. The container adapter undeploys with a SIGTERM and does not wait,
 * so the next JVM could boot while the last still holds its ports and cluster membership; and when
 * a boot times out, the adapter fails the deploy but leaves that JVM running. Only this test JVM's
 * own children that run an Arquillian deployment are touched, each by its PID.
 */
public class PayaraLeftovers {

  public void beforeDeploy(@Observes BeforeDeploy event) {
    stopAll();
  }

  public void afterSuite(@Observes AfterSuite event) {
    stopAll();
  }

  private static void stopAll() {
    ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("arquillian-payara-micro"))
        .forEach(PayaraLeftovers::stop);
  }

  /** SIGTERM (again, for one already stopping), 30 s to exit, then SIGKILL. */
  private static void stop(ProcessHandle process) {
    process.destroy();
    try {
      process.onExit().get(30, TimeUnit.SECONDS);
    } catch (TimeoutException | ExecutionException e) {
      System.out.println("Payara Micro JVM " + process.pid() + " did not stop in 30 s: killing it");
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
