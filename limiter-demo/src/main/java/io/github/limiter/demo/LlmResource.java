package io.github.limiter.demo;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/cdi/llm?tokens=N&used=M}: a stand-in for an LLM endpoint. A call reserves the
 * tokens it asks for (1 to 2147483647), and, given {@code used} (0 or more), reports what the
 * "completion" really used, which settles the difference when the call ends. The parameters are
 * checked before the limited {@link Completions} is called: a bad one is answered 400 and charged
 * nothing.
 */
@Path("llm")
@RequestScoped
public class LlmResource {

  @Inject Completions completions;

  @GET
  @Produces(MediaType.TEXT_PLAIN)
  public String complete(
      @QueryParam("tokens") @DefaultValue("1") String tokens, @QueryParam("used") String used) {
    return completions.complete(
        InvalidParameter.integer("tokens", tokens, 1, Integer.MAX_VALUE),
        used == null ? null : InvalidParameter.integer("used", used, 0, Integer.MAX_VALUE));
  }
}
