package io.github.limiter.demo;

import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/cdi/hello}: limited by {@code @Limited} (policy {@code cdi-hello}). */
@Path("hello")
@RequestScoped
public class CdiHelloResource {

  @GET
  @Produces(MediaType.TEXT_PLAIN)
  @Limited("cdi-hello")
  public String hello() {
    return "hello from the @Limited resource\n";
  }
}
