package io.github.limiter.jaxrs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The test application's resources. */
@Path("/")
@Produces("text/plain")
public class Resources {

  /** Released by a test to let {@link #slow} answer. */
  static volatile CountDownLatch gate = new CountDownLatch(0);

  /** Counted down when {@link #slow} has started. */
  static volatile CountDownLatch entered = new CountDownLatch(0);

  @GET
  @Path("items")
  public String items() {
    return "ok";
  }

  @GET
  @Path("items/{id}")
  public String item() {
    return "ok";
  }

  /** Holds its request until the test opens {@link #gate}. */
  @GET
  @Path("slow")
  public String slow() throws InterruptedException {
    entered.countDown();
    if (!gate.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the test never opened the gate");
    }
    return "ok";
  }

  /** Fails with an exception no mapper of the application maps. */
  @GET
  @Path("boom")
  public String boom() {
    throw new IllegalStateException("boom");
  }

  /** Answers on another thread, once the test opens {@link #gate}. */
  @GET
  @Path("async")
  public void async(@Suspended AsyncResponse response) {
    CountDownLatch waitFor = gate;
    entered.countDown();
    CompletableFuture.runAsync(
        () -> {
          try {
            waitFor.await(30, TimeUnit.SECONDS);
            response.resume("ok");
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.resume(e);
          }
        });
  }
}
