package io.github.limiter.demo;

import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/cdi/llm?tokens=N}: a stand-in for an LLM endpoint, charged the tokens a call asks
 * for (policy {@code llm}, cost from the first parameter).
 */
@Path("llm")
@RequestScoped
public class LlmResource {

  @GET
  @Produces(MediaType.TEXT_PLAIN)
  @Limited(value = "llm", cost = "param:0")
  public String complete(@QueryParam("tokens") @DefaultValue("1") int tokens) {
    return "completed, charged " + tokens + " tokens\n";
  }
}
