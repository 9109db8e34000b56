package io.github.limiter.servlet;

import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.ServletException;
import java.io.IOException;

/**
 * Activates a request context through the portable {@link RequestContextController} where none is
 * active, and ends it after the body. Loaded only once the CDI API is known to be on the class
 * path.
 */
final class CdiRequestScope implements RequestScope {

  private final Instance<RequestContextController> controllers;

  private CdiRequestScope(Instance<RequestContextController> controllers) {
    this.controllers = controllers;
  }

  /**
   * The scope of the running CDI container; {@link RequestScope#NONE} if none runs for this
   * application.
   */
  static RequestScope find() {
    try {
      return new CdiRequestScope(CDI.current().select(RequestContextController.class));
    } catch (RuntimeException e) {
      return NONE;
    }
  }

  @Override
  public void around(Body body) throws IOException, ServletException {
    // A controller is dependent and remembers whether it activated: one per request, destroyed
    // after.
    RequestContextController controller = controllers.get();
    boolean activated = controller.activate();
    try {
      body.run();
    } finally {
      try {
        if (activated) {
          controller.deactivate();
        }
      } finally {
        controllers.destroy(controller);
      }
    }
  }
}
