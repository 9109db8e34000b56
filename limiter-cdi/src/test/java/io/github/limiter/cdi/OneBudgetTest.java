package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.runtime.LimiterRuntime;
import io.github.limiter.servlet.RateLimitFilter;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumSet;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One budget per key, whichever adapter counts it: policy {@code budget} (5 an hour per X-Client)
 * is charged by the servlet filter's route {@code /routed} and by the {@code @Limited} method
 * behind {@code /limited}, in one application (a real Jetty on 127.0.0.1 and Weld with the
 * extension), on the in-memory store and on Redis. However the five calls are split between the
 * two, the sixth is refused through either.
 */
@ExtendWith(RedisExtension.class)
class OneBudgetTest {

  /** How many of the five admitted calls go through the filter; the rest go through @Limited. */
  private static final int[] THROUGH_THE_FILTER = {0, 1, 3, 5};

  @Test
  void theSixthCallIsRefusedWhicheverWayTheCallsAreSplitInMemory() throws Exception {
    try (App app = App.start(Map.of("limiter.store", "memory"))) {
      everySplit(app);
    }
  }

  @Test
  void theSixthCallIsRefusedWhicheverWayTheCallsAreSplitOnRedis(RedisServer redis)
      throws Exception {
    try (App app =
        App.start(
            Map.of(
                "limiter.store",
                "redis",
                "limiter.redis.url",
                redis.url(),
                "limiter.redis.key-prefix",
                "one-budget-" + UUID.randomUUID() + ":"))) {
      everySplit(app);
    }
  }

  private static void everySplit(App app) throws Exception {
    // The filter decides with the application's runtime: the CDI bean, which @Limited uses too
    assertThat(app.context().getServletContext().getAttribute(LimiterRuntime.ATTRIBUTE))
        .isSameAs(app.container().select(LimiterRuntime.class).get());
    for (int routed : THROUGH_THE_FILTER) {
      for (String sixth : new String[] {"routed", "limited"}) {
        String client = "split-" + routed + "-" + sixth;
        // Given five calls, routed of them through the filter, interleaved with the others
        for (int i = 0; i < 5; i++) {
          String path = i < routed ? "routed" : "limited";
          assertThat(app.get(path, client).statusCode())
              .as("call %d of %s through %s", i + 1, client, path)
              .isEqualTo(200);
        }
        // Then the sixth is refused, whichever adapter counts it
        HttpResponse<String> refused = app.get(sixth, client);
        assertThat(refused.statusCode())
            .as("sixth call of %s through %s", client, sixth)
            .isEqualTo(429);
      }
    }
  }

  /** The @Limited method behind /limited. */
  @ApplicationScoped
  public static class Budgeted {
    @Limited("budget")
    public String call() {
      return "limited";
    }
  }

  /**
   * /limited calls the @Limited bean in a request context, with the request as the container's
   * built-in bean would give it; a rejection is a 429, as the JAX-RS mapper would write it.
   */
  static final class LimitedServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      RequestContextController scope = CDI.current().select(RequestContextController.class).get();
      scope.activate();
      WebKeyTest.CurrentRequest.CURRENT.set(request);
      try {
        response.getWriter().write(CDI.current().select(Budgeted.class).get().call());
      } catch (RateLimitExceededException e) {
        response.setStatus(429);
      } finally {
        WebKeyTest.CurrentRequest.CURRENT.remove();
        scope.deactivate();
      }
    }
  }

  /** /routed: limited by the filter's route alone. */
  static final class RoutedServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.getWriter().write("routed");
    }
  }

  /**
   * Weld with the extension, and Jetty with the filter (configured by MicroProfile Config alone).
   */
  private record App(
      WeldContainer container,
      Server server,
      ServletContextHandler context,
      URI base,
      HttpClient http)
      implements AutoCloseable {

    static App start(Map<String, String> store) throws Exception {
      Map<String, String> config =
          new java.util.LinkedHashMap<>(
              TestConfig.of(
                  "limiter.policy.budget.algorithm", "fixed-window",
                  "limiter.policy.budget.limits", "5/1h",
                  "limiter.policy.budget.key", "header:X-Client",
                  "limiter.route.budget.pattern", "/routed",
                  "limiter.route.budget.policies", "budget"));
      config.putAll(store);
      TestConfig.use(config);
      WeldContainer container =
          new Weld()
              .disableDiscovery()
              .addBuildCompatibleExtensions(LimitedBuildExtension.class)
              .beanClasses(Budgeted.class, WebKeyTest.CurrentRequest.class)
              .initialize();
      Server server = new Server();
      ServerConnector connector = new ServerConnector(server);
      connector.setHost("127.0.0.1");
      connector.setPort(0);
      server.addConnector(connector);
      ServletContextHandler context = new ServletContextHandler();
      context.addFilter(
          new FilterHolder(new RateLimitFilter()), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(new ServletHolder(new RoutedServlet()), "/routed");
      context.addServlet(new ServletHolder(new LimitedServlet()), "/limited");
      server.setHandler(context);
      server.start();
      return new App(
          container,
          server,
          context,
          URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/"),
          HttpClient.newHttpClient());
    }

    HttpResponse<String> get(String path, String client) throws Exception {
      return http.send(
          HttpRequest.newBuilder(base.resolve(path)).header("X-Client", client).build(),
          HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws Exception {
      try {
        server.stop();
      } finally {
        container.close();
        TestConfig.clear();
      }
    }
  }
}
