package io.github.limiter.it.app.cdi;

import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** JAX-RS methods under {@code @Limited}; a rejection becomes a 429 through the ExceptionMapper. */
@Path("items")
@RequestScoped
public class ItemsResource {

  /** Policy {@code rest}, keyed by X-Client as configured. */
  @GET
  @Produces(MediaType.TEXT_PLAIN)
  @Limited("rest")
  public String list() {
    return "items";
  }

  /** Policy {@code shared}: also a route of the servlet filter; a request must be charged once. */
  @GET
  @Path("shared/{id}")
  @Produces(MediaType.TEXT_PLAIN)
  @Limited("shared")
  public String shared(@PathParam("id") String id) {
    return "item " + id;
  }

  /** Policy {@code budget}, which the filter's route {@code rest/items/routed} charges too. */
  @GET
  @Path("budget")
  @Produces(MediaType.TEXT_PLAIN)
  @Limited("budget")
  public String budget() {
    return "budget";
  }

  /** No {@code @Limited}: behind the route {@code budget} only. */
  @GET
  @Path("routed")
  @Produces(MediaType.TEXT_PLAIN)
  public String routed() {
    return "routed";
  }

  /**
   * No {@code @Limited}: behind the shaping route {@code shape} only, so a held request reaches
   * this request-scoped resource through the filter's async dispatch.
   */
  @GET
  @Path("shaped")
  @Produces(MediaType.TEXT_PLAIN)
  public String shaped() {
    return "shaped";
  }
}
