package io.github.limiter.it.harness;

import io.github.limiter.tck.redis.RedisServer;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link RedisServer} for one test class. List it before ArquillianExtension in
 * {@code @ExtendWith}: then the server is up before the {@code @Deployment} method runs (it can put
 * the URL into the WAR's config) and stops only after the WAR is undeployed.
 */
public class RedisForSuite implements BeforeAllCallback, AfterAllCallback {

  private static volatile RedisServer server;

  /** The running server of the current suite. */
  public static RedisServer server() {
    RedisServer current = server;
    if (current == null) {
      throw new IllegalStateException(
          "no Redis server: extend the test class with RedisForSuite, before ArquillianExtension");
    }
    return current;
  }

  /**
   * The keys of {@code server} that match {@code pattern} (KEYS: for small test databases only).
   */
  public static List<String> keys(RedisServer server, String pattern) {
    List<?> reply = (List<?>) server.call("KEYS", pattern);
    return reply.stream().map(String::valueOf).toList();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server = RedisServer.start(context.getRequiredTestClass().getSimpleName());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    RedisServer current = server;
    server = null;
    if (current != null) {
      current.close();
    }
  }
}
