package io.github.limiter.it.app.jaxrs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;

/** /api/orders/{id}, limited by a route; /api/status, on no route. */
@Path("/")
@Produces("text/plain")
public class OrdersResource {

  @GET
  @Path("orders/{id}")
  public String order(@PathParam("id") String id) {
    return "order " + id;
  }

  @GET
  @Path("status")
  public String status() {
    return "up";
  }
}
