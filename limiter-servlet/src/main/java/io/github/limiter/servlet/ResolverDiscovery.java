package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.internal.admission.KeyResolvers;
import io.github.limiter.internal.admission.RuleCompiler;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.runtime.HttpRoutes;
import java.util.List;
import java.util.Set;

/**
 * Where the filter finds the key resolvers its routed policies name: the CDI beans when the CDI API
 * is present, then the ServiceLoader services. A wrong name fails the filter's start, naming the
 * key and the value.
 */
final class ResolverDiscovery {

  private static final String CDI_CLASS = "jakarta.enterprise.inject.spi.CDI";

  private ResolverDiscovery() {}

  /**
   * Checks the resolver names of {@code config} at start-up, before CDI may be running: only when
   * the CDI API is absent, so that every resolver must be a ServiceLoader service.
   */
  static void checkWithoutCdi(LimiterConfig config, ClassLoader loader) {
    if (hasCdi(loader)) {
      return;
    }
    Set<String> routed = HttpRoutes.routedPolicies(config);
    KeyResolvers services = KeyResolvers.services(loader);
    for (PolicyConfig policy : config.policies().values()) {
      if (routed.contains(policy.name())) {
        RuleCompiler.findResolvers(policy, services);
      }
    }
  }

  static boolean hasCdi(ClassLoader loader) {
    try {
      Class.forName(CDI_CLASS, false, ResolverDiscovery.class.getClassLoader());
      Class.forName(CDI_CLASS, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The resolver beans of the running CDI container, when the application has CDI. */
  static List<KeyResolver> beans(ClassLoader loader) {
    return hasCdi(loader) ? CdiLookups.resolvers() : List.of();
  }
}
