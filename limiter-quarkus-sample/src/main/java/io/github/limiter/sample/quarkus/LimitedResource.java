package io.github.limiter.sample.quarkus;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Quarkus REST resources whose bean methods are {@code @Limited}; a rejected call becomes a 429
 * through limiter-cdi's exception mapper. They pass no key: the bean's policies read it from the
 * request.
 */
@Path("/api")
public class LimitedResource {

  @Inject Greeter greeter;

  /** On a worker thread, as Quarkus REST runs a method that returns a plain value. */
  @GET
  @Path("limited")
  @Produces(MediaType.TEXT_PLAIN)
  public String limited() {
    return greeter.limited();
  }

  /** The same call on the event loop, where the request filters ran too. */
  @GET
  @Path("limited-event-loop")
  @Produces(MediaType.TEXT_PLAIN)
  @NonBlocking
  public String limitedOnTheEventLoop() {
    return greeter.limited();
  }

  @GET
  @Path("by-address")
  @Produces(MediaType.TEXT_PLAIN)
  public String byAddress() {
    return greeter.byAddress();
  }

  /** Through the route {@code sample-both}, then the method under the same policy: on a worker. */
  @GET
  @Path("both/blocking")
  @Produces(MediaType.TEXT_PLAIN)
  public String bothOnAWorker() {
    return greeter.both();
  }

  /** The same, on the event loop. */
  @GET
  @Path("both/event-loop")
  @Produces(MediaType.TEXT_PLAIN)
  @NonBlocking
  public String bothOnTheEventLoop() {
    return greeter.both();
  }
}
