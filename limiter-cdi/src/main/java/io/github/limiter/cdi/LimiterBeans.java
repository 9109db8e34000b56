package io.github.limiter.cdi;

import io.github.limiter.Limiter;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.internal.store.Stores;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;

/**
 * The beans the limiter offers: the store named by {@code limiter.store}, closed at shutdown, a
 * {@link Limiter} over it, the configuration, and the application's {@link LimiterRuntime}. Replace
 * the store with an {@code @Alternative @Priority(...)} bean of type {@link RateLimitStore}.
 */
@Dependent
class LimiterBeans {

  @Produces
  @ApplicationScoped
  @Typed(RateLimitStore.class)
  RateLimitStore store(LimiterDeployment extension) {
    LimiterSetup setup = extension.setup();
    return Stores.create(setup.config(), setup.lookup(), setup.loader());
  }

  void close(@Disposes RateLimitStore store) {
    store.close();
  }

  /** A limiter over the store bean; closing it would close the application's store, so don't. */
  @Produces
  @Dependent
  Limiter limiter(RateLimitStore store) {
    return Limiter.of(store);
  }

  @Produces
  @Dependent
  LimiterConfig config(LimiterDeployment extension) {
    return extension.setup().config();
  }

  /**
   * The application's one runtime over the store bean, which every adapter decides with:
   * {@code @Limited}, the servlet filter, outbound and the admin API. A singleton, not proxied: the
   * runtime is a final class of the core, and one instance per application is what it promises.
   */
  @Produces
  @Singleton
  @Typed(LimiterRuntime.class)
  LimiterRuntime runtime(LimiterDeployment extension, RateLimitStore store) {
    LimiterSetup setup = extension.setup();
    return LimiterRuntime.over(store, setup.config(), setup.lookup(), setup.loader());
  }

  /** Stops the runtime's refresh and sync; the store bean is closed by its own disposer. */
  void close(@Disposes LimiterRuntime runtime) {
    runtime.close();
  }

  /**
   * Checks the {@link Limited} methods with the application's beans ({@link
   * DeploymentChecks#atStart}), then builds their calls as the application starts: their policies
   * are live from the start (listed and changeable through the admin API, shared through the store,
   * refreshed from the configuration), not from the first call.
   */
  void start(
      @Observes Startup started,
      LimiterDeployment deployment,
      BeanManager beans,
      Instance<LimitedCalls> calls) {
    if (!deployment.sites().isEmpty()) {
      DeploymentChecks.atStart(deployment, beans);
      calls.get();
    }
  }
}
