package io.github.limiter.it.harness;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/** Prints the server log when a test fails: on a server the real cause is usually only there. */
public class PrintServerLogOnFailure implements TestWatcher {

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    ServerLog.print(context.getDisplayName() + " failed", 400);
  }
}
