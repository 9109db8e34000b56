package io.github.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.cdi.GreetServlet;
import io.github.limiter.it.app.cdi.GreetingService;
import io.github.limiter.it.app.hello.HelloServlet;
import io.github.limiter.it.app.metrics.ScrapeServlet;
import io.github.limiter.it.app.servlet.AnnotatedRateLimitFilter;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import io.github.limiter.it.harness.Prometheus;
import io.github.limiter.it.harness.Settings;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Limiter's decisions on each server's own metrics and health endpoints. Both adapters are counted:
 * the filter's {@code burst} and {@code @Limited("bean")}.
 *
 * <ul>
 *   <li>Payara and Open Liberty: MicroProfile Metrics on the server's {@code /metrics}, and at once
 *       a Micrometer registry that the application produces as a CDI bean and serves itself ({@code
 *       /scrape}): two backends at once. Readiness on {@code /health/ready}.
 *   <li>WildFly: the Micrometer subsystem's Prometheus registry on the management interface ({@code
 *       /prometheus}), and readiness on the management interface's {@code /health/ready}; the build
 *       adds both subsystems to the default {@code standalone.xml} ({@code
 *       src/test/wildfly/server.cli}). The application bundles no Micrometer: Limiter records on
 *       the registry the server injects.
 * </ul>
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class MetricsIT {

  /** WildFly's tag of this deployment's series. */
  private static final String DEPLOYMENT_LABEL = "WF_DEPLOYMENT=\"metered.war\"";

  @Deployment
  static WebArchive app() {
    // Not "metrics.war": on Payara its context root would hide the server's own /metrics.
    WebArchive war =
        ShrinkWrap.create(WebArchive.class, "metered.war")
            .addClasses(
                HelloServlet.class,
                GreetServlet.class,
                GreetingService.class,
                AnnotatedRateLimitFilter.class)
            .addAsResource(
                new File("src/test/webapps/metrics/META-INF/microprofile-config.properties"),
                "META-INF/microprofile-config.properties");
    if (Settings.isWildFly()) {
      return war;
    }
    war.addClasses(ScrapeServlet.class, ScrapeServlet.Registry.class);
    try (Stream<Path> jars = Files.list(Path.of(Settings.required("it.micrometer.libs.dir")))) {
      jars.filter(jar -> jar.toString().endsWith(".jar"))
          .forEach(jar -> war.addAsLibrary(jar.toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return war;
  }

  @ArquillianResource URL url;

  private URI uri(String path) {
    return Deployed.base(url).resolve(path);
  }

  /**
   * The server's own endpoints: Payara's and Open Liberty's HTTP port, or WildFly's management
   * interface.
   */
  private URI server(String path) {
    String port =
        Settings.isWildFly()
            ? Settings.required("it.wildfly.management.port")
            : String.valueOf(url.getPort());
    return URI.create("http://127.0.0.1:" + port + "/" + path);
  }

  @Test
  void everyDecisionOfTheFilterAndOfLimitedIsCountedOnTheServersEndpoint() {
    int[] filter = new int[600];
    int[] limited = new int[600];
    for (int i = 0; i < 6; i++) {
      filter[Http.get(uri("hello")).statusCode()]++;
      limited[Http.get(uri("greet?user=metrics")).statusCode()]++;
    }
    // 3 a minute through the filter, 2 through @Limited: a window boundary may admit up to twice
    // that.
    assertThat(filter[200] + filter[429]).isEqualTo(6);
    assertThat(filter[429]).isBetween(1, 3);
    assertThat(limited[200] + limited[429]).isEqualTo(6);
    assertThat(limited[429]).isBetween(2, 4);

    String scrape =
        Settings.isWildFly()
            ? Http.get(server("prometheus")).body()
            : Http.get(server("metrics"), "Accept", "text/plain").body();
    assertDecisions(scrape, "burst", filter);
    assertDecisions(scrape, "bean", limited);
    // The in-memory store's decision is a compare-and-set, cheaper than timing it: not timed.
    assertThat(ours(scrape)).noneMatch(line -> line.startsWith("limiter_store_duration_seconds"));
    if (!Settings.isWildFly()) {
      String own = Http.get(uri("scrape")).body();
      assertDecisions(own, "burst", filter);
      assertDecisions(own, "bean", limited);
    }
  }

  @Test
  void theReadinessCheckIsOnTheServersHealthEndpoint() {
    HttpResponse<String> ready = Http.get(server("health/ready"));

    if (!Settings.isWildFly()) {
      assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
      assertThat(ready.body()).contains("\"limiter\"");
    } else {
      // Not the overall status: WildFly keeps reporting, as DOWN, the check of a deployment that
      // failed earlier in the suite (BadConfigIT's), until the server restarts.
      assertThat(ready.body()).containsPattern("\\{\"name\":\"limiter\",\"status\":\"UP\"");
    }
  }

  /**
   * The lines of this deployment: WildFly's registry is the server's, and keeps the series of the
   * suite's earlier deployments, tagged with theirs.
   */
  private static List<String> ours(String scrape) {
    return scrape
        .lines()
        .filter(line -> !Settings.isWildFly() || line.contains(DEPLOYMENT_LABEL))
        .toList();
  }

  /** Limiter's lines of a scrape, for failure messages. */
  private static String limiterLines(String scrape) {
    return scrape.lines().filter(line -> line.contains("limiter")).toList().toString();
  }

  private static void assertDecisions(String scrape, String policy, int[] statuses) {
    scrape = String.join("\n", ours(scrape));
    assertThat(
            Prometheus.sum(
                scrape, "limiter_decisions_total", "policy", policy, "outcome", "rejected"))
        .as(
            "limiter_decisions_total{policy=%s,outcome=rejected} in %s",
            policy, limiterLines(scrape))
        .isEqualTo(statuses[429]);
    assertThat(
            Prometheus.sum(
                scrape, "limiter_decisions_total", "policy", policy, "outcome", "admitted"))
        .as("limiter_decisions_total{policy=%s,outcome=admitted}", policy)
        .isEqualTo(statuses[200]);
  }
}
