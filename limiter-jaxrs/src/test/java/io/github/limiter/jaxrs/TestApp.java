package io.github.limiter.jaxrs;

import io.github.limiter.servlet.RateLimitFilter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

/**
 * A real Jetty 12 on 127.0.0.1 and an ephemeral port, serving under {@code /app} either a real
 * Jersey application (Jakarta REST with the filters of this module) or, to compare, a plain servlet
 * behind the servlet filter.
 */
final class TestApp implements AutoCloseable {

  private final Server server;
  private final ServerConnector connector;
  private final HttpClient http = HttpClient.newHttpClient();

  private TestApp(ServletContextHandler context) throws Exception {
    server = new Server();
    connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(context);
    server.setStopTimeout(0);
    try {
      server.start();
    } catch (Exception e) {
      server.stop();
      throw e;
    }
  }

  /**
   * Jersey running {@code app}, mapped at {@code /app/*}; a failed start of the application throws.
   */
  static TestApp jersey(ResourceConfig app) throws Exception {
    return jersey(app, null);
  }

  /**
   * As {@link #jersey(ResourceConfig)}, behind the servlet filter {@code filter} (the limiter's, or
   * another) if not null.
   */
  static TestApp jersey(ResourceConfig app, Filter filter) throws Exception {
    return jersey(app, filter, null, Map.of());
  }

  /** As {@link #jersey(ResourceConfig, Filter)}, behind {@code filter} then {@code next}. */
  static TestApp jersey(ResourceConfig app, Filter filter, Filter next) throws Exception {
    return jersey(app, filter, next, Map.of());
  }

  /** As {@link #jersey(ResourceConfig, Filter)}, with these context attributes. */
  static TestApp jersey(ResourceConfig app, Filter filter, Map<String, Object> attributes)
      throws Exception {
    return jersey(app, filter, null, attributes);
  }

  private static TestApp jersey(
      ResourceConfig app, Filter filter, Filter next, Map<String, Object> attributes)
      throws Exception {
    ServletContextHandler context = new ServletContextHandler("/app");
    attributes.forEach(context::setAttribute);
    Filter[] filters = {filter, next};
    for (int i = 0; i < filters.length; i++) {
      if (filters[i] == null) {
        continue;
      }
      FilterHolder holder = new FilterHolder(filters[i]);
      holder.setName(i == 0 ? "limiter" : "next");
      holder.setAsyncSupported(true);
      context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    }
    ServletHolder jersey = new ServletHolder("jersey", new ServletContainer(app));
    jersey.setInitOrder(1);
    jersey.setAsyncSupported(true);
    context.addServlet(jersey, "/*");
    return new TestApp(context);
  }

  /** The resources of this module's tests, with the filters configured by {@code properties}. */
  static ResourceConfig resources(Map<String, String> properties) {
    ResourceConfig app = new ResourceConfig(Resources.class).register(RateLimitFeature.class);
    properties.forEach(app::property);
    return app;
  }

  /** A servlet that answers {@code ok} behind the servlet filter {@code filter}. */
  static TestApp servletFilter(RateLimitFilter filter) throws Exception {
    ServletContextHandler context = new ServletContextHandler("/app");
    FilterHolder holder = new FilterHolder(filter);
    holder.setName("limiter");
    holder.setAsyncSupported(true);
    context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    context.addServlet(new ServletHolder(new Ok()), "/*");
    return new TestApp(context);
  }

  /** Answers every GET with {@code ok}, as {@link Resources#items} does. */
  static final class Ok extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.setContentType("text/plain");
      response.getWriter().write("ok");
    }
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/app" + path);
  }

  /** GET {@code path} with headers from alternating names and values. */
  HttpResponse<String> get(String path, String... headers) throws Exception {
    return send("GET", path, headers);
  }

  /** {@code method} {@code path} with headers from alternating names and values, no body. */
  HttpResponse<String> send(String method, String path, String... headers) throws Exception {
    return sendBody(method, path, null, headers);
  }

  /** As {@link #send(String, String, String...)}, with {@code body} if not null. */
  HttpResponse<String> sendBody(String method, String path, String body, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Properties from alternating keys and values. */
  static Map<String, String> props(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
