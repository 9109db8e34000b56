package io.github.limiter.jaxrs;

import io.github.limiter.internal.runtime.HttpRoutes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.PreMatching;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.logging.Logger;

/**
 * The filter under Quarkus REST, where no servlet request stands behind a Jakarta REST request: the
 * client address is the Vert.x request's, reached through Quarkus REST's request context. Read
 * through reflection, so that the jar needs neither Quarkus nor Vert.x; used only when both are on
 * the class path.
 */
@PreMatching // not inherited
final class VertxRouteFilter extends RouteFilter {

  /** Quarkus REST's container request context, which every filter there is given. */
  static final String CONTEXT_CLASS =
      "org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext";

  private static final String REQUEST_CONTEXT_CLASS =
      "org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext";
  private static final String VERTX_REQUEST_CLASS = "io.vertx.core.http.HttpServerRequest";

  private final Class<?> context;
  private final Method serverContext;
  private final Method unwrap;
  private final Class<?> vertxRequest;
  private final Method remoteAddress;
  private final Method hostAddress;

  private VertxRouteFilter(
      HttpRoutes routes, FilteredRequest recorder, String name, Logger logger, ClassLoader loader)
      throws ReflectiveOperationException {
    super(routes, recorder, name, logger);
    context = Class.forName(CONTEXT_CLASS, false, loader);
    serverContext = context.getMethod("getServerRequestContext");
    unwrap = Class.forName(REQUEST_CONTEXT_CLASS, false, loader).getMethod("unwrap", Class.class);
    vertxRequest = Class.forName(VERTX_REQUEST_CLASS, false, loader);
    remoteAddress = vertxRequest.getMethod("remoteAddress");
    hostAddress = remoteAddress.getReturnType().getMethod("hostAddress");
  }

  /** The filter over Quarkus REST's classes in {@code loader}; null if they are not all there. */
  static VertxRouteFilter over(
      HttpRoutes routes, FilteredRequest recorder, String name, Logger logger, ClassLoader loader) {
    try {
      return new VertxRouteFilter(routes, recorder, name, logger, loader);
    } catch (ReflectiveOperationException | LinkageError e) {
      return null;
    }
  }

  @Override
  String remoteAddress(ContainerRequestContext request) {
    if (!context.isInstance(request)) {
      return null;
    }
    try {
      Object server = serverContext.invoke(request);
      Object vertx =
          unwrap.getDeclaringClass().isInstance(server)
              ? unwrap.invoke(server, vertxRequest)
              : null;
      Object address = vertx == null ? null : remoteAddress.invoke(vertx);
      return address == null ? null : (String) hostAddress.invoke(address);
    } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
      return null; // not a Vert.x request (another Quarkus REST server)
    }
  }
}
