package io.github.limiter.cdi;

import java.util.List;

/**
 * What the deployment found and read once: the {@link Limited} methods and the configuration. A
 * bean: the synthetic bean of {@link LimitedBuildExtension}, {@link FoundSites}.
 */
interface LimiterDeployment {

  /** Every business method under {@link Limited} that this deployment has. */
  List<Site> sites();

  /**
   * The configuration, read once from MicroProfile Config with the deployment's class loader.
   *
   * @throws io.github.limiter.ConfigException naming a bad key and its value
   * @throws IllegalStateException if MicroProfile Config is not available
   */
  LimiterSetup setup();

  /** The deployment's class loader: the thread's context class loader, else the library's. */
  static ClassLoader loader() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return loader != null ? loader : LimiterDeployment.class.getClassLoader();
  }
}
