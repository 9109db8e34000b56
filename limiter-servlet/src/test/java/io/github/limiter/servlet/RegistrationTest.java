package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Limiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.servlet.webfilter.AnnotatedRateLimitFilter;
import io.github.limiter.spi.ConfigLookup;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.ee10.annotations.AnnotationConfiguration;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.junit.jupiter.api.Test;

/** The three ways to register the filter, each in a real container. */
class RegistrationTest {

  private static Path testClasses() throws Exception {
    return Path.of(
        RegistrationTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static WebAppContext webapp(Path base, String name) throws Exception {
    WebAppContext webapp = new WebAppContext();
    webapp.setContextPath(TestServer.CONTEXT);
    webapp.setBaseResourceAsPath(base);
    webapp.setThrowUnavailableOnStartupException(true);
    Path temp = testClasses().resolveSibling("webapp-tmp").resolve(name);
    Files.createDirectories(temp);
    webapp.setTempDirectory(temp.toFile());
    return webapp;
  }

  @Test
  void declaredInWebXml() throws Exception {
    try (TestServer server =
        TestServer.start(webapp(testClasses().resolve("webapps/xml"), "xml"))) {
      assertThat(Http.get(server.uri("/api/a"), "X-Api-Key", "k").statusCode()).isEqualTo(200);
      HttpResponse<String> second = Http.get(server.uri("/api/a"), "X-Api-Key", "k");
      assertThat(second.statusCode()).isEqualTo(200);
      assertThat(second.headers().firstValue("RateLimit"))
          .get()
          .asString()
          .startsWith("\"api\";r=0;");
      assertThat(Http.get(server.uri("/api/a"), "X-Api-Key", "k").statusCode()).isEqualTo(429);
      assertThat(Http.get(server.uri("/api/a"), "X-Api-Key", "other").statusCode()).isEqualTo(200);
      assertThat(Http.get(server.uri("/free")).headers().firstValue("RateLimit")).isEmpty();
      // The ASYNC dispatcher mapping from web.xml: shaped requests come back through the filter.
      List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        burst.add(Http.getAsync(server.uri("/shaped/b"), "X-Check-Charged", "shaped"));
      }
      List<String> bodies = new ArrayList<>();
      for (CompletableFuture<HttpResponse<String>> response : burst) {
        assertThat(response.get().statusCode()).isEqualTo(200);
        bodies.add(response.get().body());
      }
      assertThat(bodies).anyMatch(body -> body.contains("dispatch=ASYNC charged=[shaped]"));
      assertThat(server.stats().counts("api"))
          .isEqualTo(new RateLimitFilter.Stats.Counts(3, 1, 0, 0));
    }
  }

  @Test
  void annotatedSubclassIsFoundByScanning() throws Exception {
    // A webapp whose WEB-INF/classes holds only the annotated subclass, as a WAR would.
    Path base = testClasses().resolveSibling("webapps-annotated");
    Path classFile = Path.of(AnnotatedRateLimitFilter.class.getName().replace('.', '/') + ".class");
    Files.createDirectories(base.resolve("WEB-INF/classes").resolve(classFile).getParent());
    Files.copy(
        testClasses().resolve("webapps/annotated/WEB-INF/web.xml"),
        base.resolve("WEB-INF/web.xml"),
        StandardCopyOption.REPLACE_EXISTING);
    Files.copy(
        testClasses().resolve(classFile),
        base.resolve("WEB-INF/classes").resolve(classFile),
        StandardCopyOption.REPLACE_EXISTING);
    WebAppContext webapp = webapp(base, "annotated");
    webapp.addConfiguration(new AnnotationConfiguration());
    try (TestServer server = TestServer.start(webapp)) {
      assertThat(webapp.getServletHandler().getFilter("limiter").getClassName())
          .isEqualTo(AnnotatedRateLimitFilter.class.getName());
      assertThat(Http.get(server.uri("/api")).statusCode()).isEqualTo(200);
      assertThat(Http.get(server.uri("/api")).statusCode()).isEqualTo(200);
      HttpResponse<String> rejected = Http.get(server.uri("/api"));
      assertThat(rejected.statusCode()).isEqualTo(429);
      assertThat(rejected.headers().firstValue("Retry-After")).isPresent();
    }
  }

  /**
   * The initializer fails a bad web.xml configuration at start-up, before any filter init: the
   * deployment fails even in containers that only log a filter's failed init (Payara).
   */
  @Test
  void initializerFailsABadDeclarationAtStartUp() throws Exception {
    WebAppContext webapp = webapp(testClasses().resolve("webapps/bad"), "bad");
    webapp.addConfiguration(
        new AnnotationConfiguration()); // Jetty runs ServletContainerInitializers with it
    assertThatThrownBy(() -> TestServer.start(webapp).close())
        .hasStackTraceContaining("RateLimitInitializer.onStartup")
        .hasStackTraceContaining("limiter.policy.api.limits")
        .hasStackTraceContaining("'10 per sec'");
  }

  /**
   * A web.xml whose filter shapes under {@code shaped}, declared with {@code filterOptions} (and no
   * async-supported).
   */
  private static WebAppContext shapingWebapp(
      String name, String filterOptions, String policyOptions) throws Exception {
    Path base = testClasses().resolveSibling("webapps-" + name);
    Files.createDirectories(base.resolve("WEB-INF"));
    Files.writeString(
        base.resolve("WEB-INF/web.xml"),
        """
        <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0" metadata-complete="true">
          <servlet>
            <servlet-name>ok</servlet-name>
            <servlet-class>io.github.limiter.servlet.OkServlet</servlet-class>
            <async-supported>true</async-supported>
          </servlet>
          <servlet-mapping><servlet-name>ok</servlet-name><url-pattern>/*</url-pattern></servlet-mapping>
          <filter>
            <filter-name>shaper</filter-name>
            <filter-class>io.github.limiter.servlet.RateLimitFilter</filter-class>
            %s
            <init-param><param-name>limiter.policy.shaped.algorithm</param-name><param-value>leaky-bucket</param-value></init-param>
            <init-param><param-name>limiter.policy.shaped.limits</param-name><param-value>2/s burst=4</param-value></init-param>
            %s
            <init-param><param-name>limiter.route.shaped.pattern</param-name><param-value>/shaped/*</param-value></init-param>
            <init-param><param-name>limiter.route.shaped.policies</param-name><param-value>shaped</param-value></init-param>
          </filter>
          <filter-mapping><filter-name>shaper</filter-name><url-pattern>/*</url-pattern></filter-mapping>
        </web-app>
        """
            .formatted(filterOptions, policyOptions));
    WebAppContext webapp = webapp(base, name);
    webapp.addConfiguration(
        new AnnotationConfiguration()); // Jetty runs ServletContainerInitializers with it
    return webapp;
  }

  /**
   * A shaping policy needs an async-supported filter: without it every request would pass at once,
   * so the deployment fails, naming the filter and the policy (issue 17.5).
   */
  @Test
  void aShapingFilterThatIsNotAsyncSupportedFailsTheDeployment() throws Exception {
    WebAppContext webapp = shapingWebapp("sync-shaping", "", "");

    assertThatThrownBy(() -> TestServer.start(webapp).close())
        .hasStackTraceContaining("RateLimitInitializer.onStartup")
        .hasStackTraceContaining(
            "RateLimitFilter 'shaper' is not async-supported, but its policy 'shaped' shapes")
        .hasStackTraceContaining("limiter.policy.shaped.nodelay=true");
  }

  @Test
  void aFilterThatIsNotAsyncSupportedStartsWhenNoPolicyShapes() throws Exception {
    WebAppContext webapp =
        shapingWebapp(
            "sync-nodelay",
            "<async-supported>false</async-supported>",
            "<init-param><param-name>limiter.policy.shaped.nodelay</param-name><param-value>true</param-value></init-param>");

    try (TestServer server = TestServer.start(webapp)) {
      assertThat(Http.get(server.uri("/shaped/x")).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void anAsyncSupportedShapingFilterStarts() throws Exception {
    WebAppContext webapp =
        shapingWebapp("async-shaping", "<async-supported> true </async-supported>", "");

    try (TestServer server = TestServer.start(webapp)) {
      assertThat(Http.get(server.uri("/shaped/x")).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void addedProgrammaticallyWithAReadyConfigAndLimiter() throws Exception {
    ConfigLookup config =
        ConfigLookup.of(
            Props.of(
                "limiter.policy.api.algorithm", "sliding-window-log",
                "limiter.policy.api.limits", "1/1m",
                "limiter.route.api.pattern", "*.json",
                "limiter.route.api.policies", "api"));
    try (Limiter limiter = Limiter.of(InMemoryStore.create())) {
      RateLimitFilter filter = new RateLimitFilter(config, limiter);
      try (TestServer server = TestServer.start(TestServer.context(TestServer.filter(filter)))) {
        assertThat(Http.get(server.uri("/a/b.json")).statusCode()).isEqualTo(200);
        assertThat(Http.get(server.uri("/c.json")).statusCode()).isEqualTo(429);
        assertThat(Http.get(server.uri("/c.html")).statusCode()).isEqualTo(200);
        assertThat(filter.stats().counts("api"))
            .isEqualTo(new RateLimitFilter.Stats.Counts(1, 1, 0, 0));
        assertThat(server.stats()).isSameAs(filter.stats());
      }
      // The filter did not close the limiter it was given.
      assertThat(
              limiter
                  .decide(LimiterConfig.from(config).policy("api").orElseThrow().policy(), "after")
                  .isAllowed())
          .isTrue();
    }
  }
}
