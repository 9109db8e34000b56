package io.github.limiter.outbound;

import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.microprofile.MicroProfileConfigLookup;
import io.github.limiter.spi.ConfigLookup;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.enterprise.inject.spi.Extension;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Holds the application's outbound policies, read and checked when it is deployed, so that a bad
 * value fails the deployment, naming the key and the value, and not the first call. They are a part
 * of the application's {@link LimiterRuntime} when limiter-cdi provides it, over its store and
 * metrics; else the extension reads them from the configuration alone, and closes their store when
 * the application is undeployed. A CDI portable extension: a server with CDI finds it in the jar,
 * and {@link Outbound#shared()} finds it as the container's bean (application-scoped, so proxied:
 * not final).
 */
public class OutboundValidation implements Extension {

  private volatile Outbound outbound;
  private boolean owned;

  void validate(@Observes AfterDeploymentValidation deployment, BeanManager beans) {
    try {
      ClassLoader loader = loader();
      ConfigLookup config = config(loader);
      LimiterRuntime runtime = OutboundConfig.readAll(config).isEmpty() ? null : runtime(beans);
      synchronized (this) {
        if (runtime != null) {
          outbound = runtime.part(Outbound.class, Outbound::over);
        } else {
          outbound = Outbound.fromConfig(config, loader);
          owned = true;
        }
      }
    } catch (RuntimeException e) {
      deployment.addDeploymentProblem(e);
    }
  }

  void close(@Observes BeforeShutdown shutdown) {
    synchronized (this) {
      if (owned) {
        outbound.close();
      }
      outbound = null;
    }
  }

  /**
   * The application's outbound policies.
   *
   * @throws IllegalStateException before the deployment was validated, or after it failed
   */
  public Outbound outbound() {
    Outbound current = outbound;
    if (current == null) {
      throw new IllegalStateException(
          "the application's outbound policies are not read: its deployment has not been"
              + " validated, or it failed");
    }
    return current;
  }

  /** limiter-cdi's runtime bean, when the application has it; null otherwise. */
  private static LimiterRuntime runtime(BeanManager beans) {
    Bean<?> bean = beans.resolve(beans.getBeans(LimiterRuntime.class));
    return bean == null
        ? null
        : (LimiterRuntime)
            beans.getReference(bean, LimiterRuntime.class, beans.createCreationalContext(bean));
  }

  /** MicroProfile Config, else the system properties. */
  private static ConfigLookup config(ClassLoader loader) {
    if (MicroProfileConfigLookup.isAvailable(loader)) {
      return MicroProfileConfigLookup.forClassLoader(loader);
    }
    Properties properties = System.getProperties();
    Map<String, String> copy = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      copy.put(name, properties.getProperty(name));
    }
    return ConfigLookup.of(copy);
  }

  private static ClassLoader loader() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return loader != null ? loader : OutboundValidation.class.getClassLoader();
  }
}
