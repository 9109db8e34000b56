package io.github.limiter.sample.quarkus;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/limited}: a Quarkus REST resource whose bean method is {@code @Limited}; a
 * rejected call becomes a 429 through limiter-cdi's exception mapper.
 */
@Path("/api/limited")
public class LimitedResource {

  @Inject Greeter greeter;

  @GET
  @Produces(MediaType.TEXT_PLAIN)
  public String limited(@HeaderParam("X-Client") String client) {
    return greeter.limited(client);
  }
}
