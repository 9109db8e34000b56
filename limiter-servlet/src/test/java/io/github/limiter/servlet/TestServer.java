package io.github.limiter.servlet;

import io.github.limiter.internal.runtime.LimiterRuntime;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import java.net.URI;
import java.util.EnumSet;
import java.util.Map;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** A real Jetty 12 on 127.0.0.1 and an ephemeral port, with {@link OkServlet} under /app. */
final class TestServer implements AutoCloseable {

  static final String CONTEXT = "/app";

  final Server server;
  final QueuedThreadPool pool;
  private final ServerConnector connector;

  private TestServer(int maxThreads, Handler handler) throws Exception {
    pool = new QueuedThreadPool(maxThreads, Math.min(4, maxThreads));
    pool.setName("test-jetty");
    // No reserved threads: every thread the pool has is counted as a worker in the shaping test.
    pool.setReservedThreads(0);
    server = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setRequestHeaderSize(16 * 1024); // so that a 10 kB header reaches the filter
    http.setSendServerVersion(false);
    connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(handler);
    server.setStopTimeout(0); // no graceful wait for the client's idle keep-alive connections
  }

  /** Starts a server; throws if the context (e.g. the filter's init) fails. */
  static TestServer start(Handler handler) throws Exception {
    return start(200, handler);
  }

  static TestServer start(int maxThreads, Handler handler) throws Exception {
    TestServer server = new TestServer(maxThreads, handler);
    try {
      server.server.start();
    } catch (Exception e) {
      server.close();
      throw e;
    }
    return server;
  }

  /**
   * A context with the servlet and whatever {@code setup} adds through the Servlet API at start-up.
   */
  static ServletContextHandler context(Consumer<ServletContext> setup) {
    ServletContextHandler context =
        new ServletContextHandler(CONTEXT, ServletContextHandler.SECURITY);
    ServletHolder servlet = new ServletHolder("ok", OkServlet.class);
    servlet.setAsyncSupported(true);
    context.addServlet(servlet, "/*");
    context.addServletContainerInitializer(
        (ServletContainerInitializer) (classes, ctx) -> setup.accept(ctx));
    return context;
  }

  /**
   * Registers {@link RateLimitFilter} by class with {@code params} as init-params:
   * ServletContext.addFilter.
   */
  static Consumer<ServletContext> filter(Map<String, String> params) {
    return ctx -> {
      FilterRegistration.Dynamic registration = ctx.addFilter("limiter", RateLimitFilter.class);
      registration.setAsyncSupported(true);
      params.forEach(registration::setInitParameter);
      registration.addMappingForUrlPatterns(
          EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC), false, "/*");
    };
  }

  /** Registers a ready filter instance: ServletContext.addFilter(name, filter). */
  static Consumer<ServletContext> filter(Filter filter) {
    return ctx -> {
      FilterRegistration.Dynamic registration = ctx.addFilter("limiter", filter);
      registration.setAsyncSupported(true);
      registration.addMappingForUrlPatterns(
          EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC), false, "/*");
    };
  }

  /**
   * Starts a server whose filter is configured by {@code params} (plus the default routes if none).
   */
  static TestServer withFilter(Map<String, String> params) throws Exception {
    return start(context(filter(params)));
  }

  int port() {
    return connector.getLocalPort();
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port() + CONTEXT + path);
  }

  /** The filter's counters, read from the servlet-context attribute. */
  RateLimitFilter.Stats stats() {
    for (Handler handler : server.getDescendants(Handler.class)) {
      if (handler instanceof org.eclipse.jetty.ee10.servlet.ServletContextHandler context) {
        Object stats =
            context.getServletContext().getAttribute(RateLimitFilter.statsAttribute("limiter"));
        if (stats != null) {
          return (RateLimitFilter.Stats) stats;
        }
      }
    }
    throw new AssertionError("no RateLimitFilter stats attribute");
  }

  /** The application's runtime, which the filter keeps in the servlet context. */
  LimiterRuntime runtime() {
    for (Handler handler : server.getDescendants(Handler.class)) {
      if (handler instanceof org.eclipse.jetty.ee10.servlet.ServletContextHandler context
          && context.getServletContext().getAttribute(LimiterRuntime.ATTRIBUTE)
              instanceof LimiterRuntime runtime) {
        return runtime;
      }
    }
    throw new AssertionError("no LimiterRuntime in the servlet context");
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
