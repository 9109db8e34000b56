package io.github.limiter.it.conformance;

import io.github.limiter.it.app.conformance.ConformanceApplication;
import io.github.limiter.it.app.conformance.ConformanceResource;
import io.github.limiter.it.app.conformance.LimitedGreeter;
import io.github.limiter.it.app.servlet.AnnotatedRateLimitFilter;
import io.github.limiter.it.harness.LimiterLibraries;
import io.github.limiter.it.harness.Settings;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The conformance application as a WAR, for the servlet runtimes. Its contract, which every
 * runtime's application serves the same way:
 *
 * <ul>
 *   <li>{@code GET /api/route}: 200 {@code route}, limited by the filter's route policy {@code
 *       conformance-route} (3 a minute, keyed by {@code X-Client});
 *   <li>{@code GET /api/limited}: a CDI bean method under {@code @Limited("conformance-limited")}
 *       (2 a minute, keyed by {@code X-Client}), a 429 through the exception mapper;
 *   <li>{@code GET /}: a page outside every limit, to see that the application is up;
 *   <li>{@code /limiter/admin/}: the admin API and console, off unless a test enables them
 *       (limiter-servlet's here, limiter-jaxrs's in the Quarkus sample).
 * </ul>
 *
 * Its settings are in {@code META-INF/microprofile-config.properties}; system properties override
 * them.
 */
public final class ConformanceApp {

  /** Where the servlet runtimes serve it. */
  public static final String CONTEXT_ROOT = "/conformance";

  private static Path war;

  private ConformanceApp() {}

  /** The WAR, written once per test JVM to {@code it.target.dir}. */
  public static synchronized Path war() {
    if (war == null) {
      Path file = Path.of(Settings.required("it.target.dir"), "conformance", "conformance.war");
      try {
        Files.createDirectories(file.getParent());
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      WebArchive archive =
          ShrinkWrap.create(WebArchive.class, "conformance.war")
              .addClasses(
                  AnnotatedRateLimitFilter.class,
                  ConformanceApplication.class,
                  ConformanceResource.class,
                  LimitedGreeter.class)
              .addAsResource(
                  new File("src/test/webapps/conformance/META-INF/microprofile-config.properties"),
                  "META-INF/microprofile-config.properties")
              .addAsWebResource(new StringAsset("conformance\n"), "index.html");
      LimiterLibraries.addTo(archive);
      archive.as(ZipExporter.class).exportTo(file.toFile(), true);
      war = file;
    }
    return war;
  }
}
