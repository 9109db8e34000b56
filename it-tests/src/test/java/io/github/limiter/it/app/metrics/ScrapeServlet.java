package io.github.limiter.it.app.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The application's own Micrometer registry, a CDI bean that Limiter records on, and {@code GET
 * /scrape} serving it in the Prometheus format: how an application sees Limiter's metrics on a
 * server without a Micrometer subsystem (WildFly's default configuration).
 */
@WebServlet("/scrape")
public class ScrapeServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  static final PrometheusMeterRegistry REGISTRY =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  /**
   * Produces the registry; a dependent bean of the one instance, so no proxy of a class without a
   * no-arg constructor.
   */
  @ApplicationScoped
  public static class Registry {
    @Produces
    MeterRegistry registry() {
      return REGISTRY;
    }
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain; version=0.0.4");
    response.setCharacterEncoding("UTF-8");
    response.getWriter().print(REGISTRY.scrape());
  }
}
