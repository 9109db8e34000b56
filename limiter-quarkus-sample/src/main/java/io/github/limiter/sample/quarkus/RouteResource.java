package io.github.limiter.sample.quarkus;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/route}: a Quarkus REST resource limited by the route policy {@code
 * conformance-route} through limiter-jaxrs's filters, which Quarkus REST finds with the dependency
 * alone.
 */
@Path("/api/route")
public class RouteResource {

  @GET
  @Produces(MediaType.TEXT_PLAIN)
  public String route() {
    return "route";
  }
}
