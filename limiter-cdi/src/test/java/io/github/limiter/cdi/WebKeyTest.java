package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.control.RequestContextController;
import jakarta.enterprise.inject.Produces;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keys from a real HTTP request: a Jetty servlet on 127.0.0.1 calls a {@code @Limited} bean, with
 * the request exposed as the request-scoped {@code HttpServletRequest} bean that Jakarta EE
 * containers provide.
 */
class WebKeyTest {

  private static WeldContainer container;
  private static Server server;
  private static HttpClient http;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    TestConfig.use(
        TestConfig.of(
            "limiter.http.trusted-proxies", "127.0.0.1/32",
            "limiter.policy.per-ip.algorithm", "fixed-window",
            "limiter.policy.per-ip.limits", "2/m",
            "limiter.policy.proxied.algorithm", "fixed-window",
            "limiter.policy.proxied.limits", "1/m",
            "limiter.policy.per-key.algorithm", "fixed-window",
            "limiter.policy.per-key.limits", "1/m",
            "limiter.policy.per-key.key", "header:X-Api-Key",
            "limiter.policy.per-key.on-missing-key", "reject",
            "limiter.policy.per-user.algorithm", "fixed-window",
            "limiter.policy.per-user.limits", "1/m",
            "limiter.policy.per-user.key", "principal",
            "limiter.policy.anywhere.algorithm", "fixed-window",
            "limiter.policy.anywhere.limits", "1/m"));
    container =
        new Weld()
            .disableDiscovery()
            .addBuildCompatibleExtensions(LimitedBuildExtension.class)
            .beanClasses(TestStore.class, CurrentRequest.class, Api.class, SeenKeys.class)
            .initialize();
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(new CallServlet()), "/*");
    server.setHandler(context);
    server.start();
    base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
    http = HttpClient.newHttpClient();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      server.stop();
    } finally {
      container.close();
      TestConfig.clear();
    }
  }

  @Test
  void remoteAddressOfTheRequestIsTheKey() throws Exception {
    assertThat(get("ip").statusCode()).isEqualTo(200);
    assertThat(get("ip").statusCode()).isEqualTo(200);
    HttpResponse<String> rejected = get("ip");
    assertThat(rejected.statusCode()).isEqualTo(429);
    assertThat(rejected.body()).isEqualTo("per-ip");
    assertThat(rejected.headers().firstValue("Retry-After")).contains("60");
  }

  @Test
  void forwardedClientOfATrustedProxyIsTheKey() throws Exception {
    // 127.0.0.1 is a trusted proxy: the hop before it is the client
    assertThat(get("proxied", "X-Forwarded-For", "198.51.100.9, 203.0.113.7").statusCode())
        .isEqualTo(200);
    assertThat(get("proxied", "X-Forwarded-For", "203.0.113.7:5511").statusCode()).isEqualTo(429);
    // only the configured header (X-Forwarded-For) is believed: this one is the peer, 127.0.0.1
    assertThat(get("proxied", "Forwarded", "for=203.0.113.8").statusCode()).isEqualTo(200);
    assertThat(get("proxied", "Forwarded", "for=203.0.113.9").statusCode()).isEqualTo(429);
    // IPv6 clients are grouped by their /64
    assertThat(get("proxied", "X-Forwarded-For", "2001:db8:1:2::1").statusCode()).isEqualTo(200);
    assertThat(get("proxied", "X-Forwarded-For", "[2001:db8:1:2::ff]:4711").statusCode())
        .isEqualTo(429);
  }

  @Test
  void headerIsTheKeyAndAMissingOneIsRejectedAsConfigured() throws Exception {
    assertThat(get("key", "X-Api-Key", "k1").statusCode()).isEqualTo(200);
    assertThat(get("key", "X-Api-Key", "k1").statusCode()).isEqualTo(429);
    assertThat(get("key", "X-Api-Key", "k2").statusCode()).isEqualTo(200);
    assertThat(get("key").statusCode()).isEqualTo(429); // on-missing-key=reject
  }

  @Test
  void principalIsTheKey() throws Exception {
    assertThat(get("user", "X-Test-User", "alice").statusCode()).isEqualTo(200);
    assertThat(get("user", "X-Test-User", "alice").statusCode()).isEqualTo(429);
    assertThat(get("user", "X-Test-User", "bob").statusCode()).isEqualTo(200);
  }

  @Test
  void outsideAWebRequestTheKeyIsConstant() throws Exception {
    Api api = container.select(Api.class).get();
    // Given the web client used its one permit of 'anywhere' under 127.0.0.1
    assertThat(get("anywhere").statusCode()).isEqualTo(200);
    // Then a call without a web request has a key of its own, shared by all such calls
    api.anywhere();
    RequestContextController requestContext =
        container.select(RequestContextController.class).get();
    requestContext
        .activate(); // a request context, but no HTTP request (as in a timer or a message)
    try {
      assertThatThrownBy(api::anywhere).isInstanceOf(RateLimitExceededException.class);
    } finally {
      requestContext.deactivate();
    }
    assertThat(get("anywhere").statusCode()).isEqualTo(429);
  }

  @Test
  void keysReadAsTheServletFiltersDo() throws Exception {
    // the same text as the filter's, so that a policy is one bucket per client under both
    SeenKeys keys = container.select(SeenKeys.class).get();
    get("user", "X-Test-User", "carol");
    assertThat(keys.last()).isEqualTo("p:carol");
    get("key", "X-Api-Key", " k9 ");
    assertThat(keys.last()).isEqualTo("h:k9");
    get("anywhere");
    assertThat(keys.last()).isEqualTo("ip:127.0.0.1");
  }

  private static HttpResponse<String> get(String path, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Plays the container's built-in bean: the request this thread serves. */
  static class CurrentRequest {
    static final ThreadLocal<HttpServletRequest> CURRENT = new ThreadLocal<>();

    @Produces
    @RequestScoped
    HttpServletRequest request() {
      HttpServletRequest request = CURRENT.get();
      if (request == null) {
        throw new IllegalStateException("not in a servlet request");
      }
      return request;
    }
  }

  /** The key of the last admitted or rejected call. */
  @ApplicationScoped
  static class SeenKeys {
    private volatile String last;

    void admitted(@jakarta.enterprise.event.Observes RateLimitAdmitted event) {
      last = event.key();
    }

    void rejected(@jakarta.enterprise.event.Observes RateLimitRejected event) {
      last = event.key();
    }

    String last() {
      return last;
    }
  }

  @ApplicationScoped
  static class Api {
    @Limited("per-ip")
    public String ip() {
      return "ok";
    }

    @Limited("proxied")
    public String proxied() {
      return "ok";
    }

    @Limited("per-key")
    public String key() {
      return "ok";
    }

    @Limited("per-user")
    public String user() {
      return "ok";
    }

    @Limited("anywhere")
    public String anywhere() {
      return "ok";
    }
  }

  static final class CallServlet extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      RequestContextController requestContext =
          container.select(RequestContextController.class).get();
      requestContext.activate();
      String user = request.getHeader("X-Test-User");
      CurrentRequest.CURRENT.set(
          user == null
              ? request
              : new HttpServletRequestWrapper(request) {
                @Override
                public Principal getUserPrincipal() {
                  return () -> user;
                }
              });
      try {
        Api api = container.select(Api.class).get();
        String body =
            switch (request.getPathInfo()) {
              case "/ip" -> api.ip();
              case "/proxied" -> api.proxied();
              case "/key" -> api.key();
              case "/user" -> api.user();
              case "/anywhere" -> api.anywhere();
              default -> throw new IllegalArgumentException(request.getPathInfo());
            };
        response.getWriter().write(body);
      } catch (RateLimitExceededException e) {
        response.setStatus(e.response().status());
        for (Map.Entry<String, String> header : e.response().headers()) {
          response.addHeader(header.getKey(), header.getValue());
        }
        response.getWriter().write(e.policyName());
      } finally {
        CurrentRequest.CURRENT.remove();
        requestContext.deactivate();
      }
    }
  }
}
