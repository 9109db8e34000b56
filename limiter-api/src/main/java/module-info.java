/**
 * The core: policies, the limiter, decisions and the store contract ({@code io.github.limiter}),
 * what store authors implement ({@code io.github.limiter.spi}), and the in-memory store ({@code
 * io.github.limiter.memory}). The {@code internal} packages are the project's own plumbing, open
 * only to its adapter modules.
 */
module io.github.limiter {
  requires java.logging;

  exports io.github.limiter;
  exports io.github.limiter.spi;
  exports io.github.limiter.memory;
  exports io.github.limiter.internal.admission to
      io.github.limiter.servlet,
      io.github.limiter.jaxrs,
      io.github.limiter.cdi,
      io.github.limiter.outbound;
  exports io.github.limiter.internal.admin to
      io.github.limiter.servlet,
      io.github.limiter.jaxrs;
  exports io.github.limiter.internal.algorithm to
      io.github.limiter.redis,
      io.github.limiter.tck,
      io.github.limiter.replay;
  exports io.github.limiter.internal.config to
      io.github.limiter.servlet,
      io.github.limiter.jaxrs,
      io.github.limiter.cdi,
      io.github.limiter.microprofile,
      io.github.limiter.redis,
      io.github.limiter.metrics,
      io.github.limiter.outbound,
      io.github.limiter.tck;
  exports io.github.limiter.internal.http to
      io.github.limiter.jaxrs,
      io.github.limiter.cdi;
  exports io.github.limiter.internal.render to
      io.github.limiter.servlet,
      io.github.limiter.jaxrs,
      io.github.limiter.cdi;
  exports io.github.limiter.internal.live to
      io.github.limiter.redis;
  exports io.github.limiter.internal.insight to
      io.github.limiter.servlet,
      io.github.limiter.cdi;
  exports io.github.limiter.internal.log to
      io.github.limiter.servlet,
      io.github.limiter.jaxrs,
      io.github.limiter.cdi,
      io.github.limiter.redis,
      io.github.limiter.outbound;
  exports io.github.limiter.internal.metrics to
      io.github.limiter.metrics,
      io.github.limiter.outbound,
      io.github.limiter.redis;
  exports io.github.limiter.internal.runtime to
      io.github.limiter.servlet,
      io.github.limiter.jaxrs,
      io.github.limiter.cdi,
      io.github.limiter.metrics,
      io.github.limiter.outbound;
  exports io.github.limiter.internal.store to
      io.github.limiter.servlet,
      io.github.limiter.cdi,
      io.github.limiter.outbound;

  uses io.github.limiter.spi.StoreFactory;
  uses io.github.limiter.internal.metrics.RecorderFactory;
  uses io.github.limiter.internal.config.SettingsSection;

  provides io.github.limiter.spi.StoreFactory with
      io.github.limiter.internal.store.InMemoryStoreFactory;
}
