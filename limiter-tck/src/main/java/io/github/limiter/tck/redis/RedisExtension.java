package io.github.limiter.tck.redis;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects a {@link RedisServer} or a {@link RedisCluster} parameter, shared by every test of the
 * run: each is started at most once, on first use, and stopped when the run ends. The standalone
 * server is the one {@code REDIS_URL} names, if set ({@link RedisServer#fromEnvironmentOrStart}).
 *
 * <pre>{@code
 * @ExtendWith(RedisExtension.class)
 * class MyTest {
 *   @Test
 *   void decides(RedisServer redis) { ... redis.url() ... }
 * }
 * }</pre>
 *
 * <p>Shared servers outlive a test, so tests keep apart by key prefix and never kill, freeze or
 * flush them; a test that does starts a server of its own with {@link RedisServer#start}.
 */
public final class RedisExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(RedisExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == RedisServer.class || type == RedisCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    // The root store closes AutoCloseable values when the run ends.
    ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
    if (parameter.getParameter().getType() == RedisServer.class) {
      return store.getOrComputeIfAbsent(
          "standalone", k -> RedisServer.fromEnvironmentOrStart("shared"), RedisServer.class);
    }
    return store.getOrComputeIfAbsent(
        "cluster", k -> RedisCluster.start("shared-cluster"), RedisCluster.class);
  }
}
