package io.github.limiter.it.app.conformance;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The conformance contract's two resources. */
@Path("")
@RequestScoped
public class ConformanceResource {

  @Inject LimitedGreeter greeter;

  /** Limited by the filter's route {@code conformance-route} alone. */
  @GET
  @Path("route")
  @Produces(MediaType.TEXT_PLAIN)
  public String route() {
    return "route";
  }

  /** Limited by {@code @Limited("conformance-limited")} on the bean it calls. */
  @GET
  @Path("limited")
  @Produces(MediaType.TEXT_PLAIN)
  public String limited() {
    return greeter.limited();
  }
}
