package io.github.limiter.it.harness;

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
      throw new IllegalStateException("no Redis server: extend the test class with RedisForSuite, before ArquillianExtension");
    }
    return current;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server = RedisServer.start();
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
