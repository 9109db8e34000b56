package io.github.limiter.demo;

import io.github.limiter.ActualCost;
import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/cdi/llm?tokens=N&used=M}: a stand-in for an LLM endpoint (policy {@code llm}). A
 * call reserves the tokens it asks for (the first parameter), and, given {@code used}, reports what
 * the "completion" really used, which settles the difference when the call ends.
 */
@Path("llm")
@RequestScoped
public class LlmResource {

  @GET
  @Produces(MediaType.TEXT_PLAIN)
  @Limited(value = "llm", cost = "param:0")
  public String complete(
      @QueryParam("tokens") @DefaultValue("1") int tokens, @QueryParam("used") Integer used) {
    if (used == null) {
      return "completed, charged " + tokens + " tokens\n";
    }
    ActualCost.current().report(used);
    return "completed, reserved " + tokens + " tokens, charged " + used + "\n";
  }
}
