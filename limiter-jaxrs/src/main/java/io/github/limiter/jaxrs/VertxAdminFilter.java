package io.github.limiter.jaxrs;

import io.github.limiter.internal.admin.AdminApi;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.PreMatching;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;

/**
 * The admin filter under Quarkus REST, whose pre-matching filters run on the Vert.x event loop,
 * where reading a request's body or waiting on Redis is not allowed: it suspends the request, and
 * answers it on a Vert.x worker thread. Reached through reflection, as {@link VertxRouteFilter}, so
 * that the jar needs neither Quarkus nor Vert.x; used only when both are on the class path.
 */
@PreMatching // not inherited
final class VertxAdminFilter extends AdminFilter {

  private static final String VERTX_CLASS = "io.vertx.core.Vertx";
  private static final String VERTX_CONTEXT_CLASS = "io.vertx.core.Context";

  private final Class<?> context;
  private final Method suspend;
  private final Method resume;
  private final Method resumeWith;
  private final Method currentContext;
  private final Method executeBlocking;

  private VertxAdminFilter(AdminApi api, ClassLoader loader) throws ReflectiveOperationException {
    super(api);
    context = Class.forName(VertxRouteFilter.CONTEXT_CLASS, false, loader);
    suspend = context.getMethod("suspend");
    resume = context.getMethod("resume");
    resumeWith = context.getMethod("resume", Throwable.class);
    currentContext = Class.forName(VERTX_CLASS, false, loader).getMethod("currentContext");
    executeBlocking =
        Class.forName(VERTX_CONTEXT_CLASS, false, loader)
            .getMethod("executeBlocking", Callable.class);
  }

  /** The filter over Quarkus REST's and Vert.x's classes in {@code loader}; null without them. */
  static VertxAdminFilter over(AdminApi api, ClassLoader loader) {
    try {
      return new VertxAdminFilter(api, loader);
    } catch (ReflectiveOperationException | LinkageError e) {
      return null;
    }
  }

  @Override
  void answer(ContainerRequestContext request, Runnable call) {
    Object vertx;
    try {
      vertx = context.isInstance(request) ? currentContext.invoke(null) : null;
    } catch (IllegalAccessException | InvocationTargetException e) {
      vertx = null;
    }
    if (vertx == null) {
      call.run(); // not on a Vert.x thread: this one may block
      return;
    }
    Callable<Void> task =
        () -> {
          try {
            call.run();
            resume.invoke(request);
          } catch (RuntimeException | Error e) {
            resumeWith.invoke(request, e);
          }
          return null;
        };
    try {
      suspend.invoke(request);
      executeBlocking.invoke(vertx, task);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot hand the admin call to a Vert.x worker", e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          "cannot hand the admin call to a Vert.x worker", e.getCause());
    }
  }
}
