package io.github.limiter.it.harness;

import org.jboss.arquillian.container.test.spi.client.deployment.ApplicationArchiveProcessor;
import org.jboss.arquillian.test.spi.TestClass;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Adds the built Limiter jars and their runtime dependencies (Jedis and the rest) to every WAR a
 * suite deploys, so that each {@code @Deployment} holds only the application under test. The jars
 * are the ones Maven copied to {@code it.libs.dir}: the real module jars, with their resources (Lua
 * scripts, META-INF/services) intact.
 */
public class LimiterArchiveProcessor implements ApplicationArchiveProcessor {

  @Override
  public void process(Archive<?> applicationArchive, TestClass testClass) {
    if (applicationArchive instanceof WebArchive war) {
      LimiterLibraries.addTo(war);
    }
  }
}
