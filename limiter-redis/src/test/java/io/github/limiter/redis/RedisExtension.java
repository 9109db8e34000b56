package io.github.limiter.redis;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects a shared standalone server (or the one named by {@code REDIS_URL}) and a shared 6-node
 * cluster, each started at most once per test run and stopped when the run ends. Tests that kill
 * or freeze a server start their own.
 */
final class RedisExtension implements ParameterResolver {

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == RedisServer.class || type == RedisCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.create(RedisExtension.class));
    if (parameter.getParameter().getType() == RedisServer.class) {
      return store.getOrComputeIfAbsent("standalone", k -> new Closing<>(standalone()), Closing.class).resource;
    }
    return store.getOrComputeIfAbsent("cluster", k -> new Closing<>(RedisCluster.start("shared-cluster")), Closing.class).resource;
  }

  static RedisServer standalone() {
    String url = System.getenv("REDIS_URL");
    return url == null || url.isBlank() ? RedisServer.start("shared") : RedisServer.external(url);
  }

  /** Stops the resource when the root context closes, at the end of the run. */
  static final class Closing<T extends AutoCloseable> implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    final T resource;

    Closing(T resource) {
      this.resource = resource;
    }

    @Override
    public void close() throws Exception {
      resource.close();
    }
  }
}
