package io.github.limiter.demo;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code GET /api/cdi/partner/quote}: a stand-in for a partner's API that limits its clients, as
 * payment or LLM providers do: per API key ({@code X-Partner-Key}), {@value #GOLD} calls per 2 s
 * window for key {@code gold}, {@value #BASIC} for any other. Past that it answers 429 with {@code
 * Retry-After}: the seconds until its window ends. {@code GET /api/cdi/partner/calls} lists the
 * calls it saw, one line each under a {@value #CALLS_HEADER} line: epoch milliseconds, key, status,
 * Retry-After in seconds (0: none).
 */
@Path("partner")
public class PartnerResource {

  static final int GOLD = 6;
  static final int BASIC = 3;
  private static final long WINDOW_MILLIS = 2_000;
  private static final int KEPT = 1_000;

  /** The first line of {@code calls}: a comment, so that tools that read the columns skip it. */
  static final String CALLS_HEADER = "# epoch-millis key status retry-after-seconds";

  private static final Map<String, long[]> WINDOWS = new HashMap<>();
  private static final Deque<String> CALLS = new ArrayDeque<>();

  @GET
  @Path("quote")
  @Produces(MediaType.TEXT_PLAIN)
  public Response quote(@HeaderParam("X-Partner-Key") String key) {
    String client = "gold".equals(key) ? "gold" : "basic";
    int limit = client.equals("gold") ? GOLD : BASIC;
    long now = System.currentTimeMillis();
    long window = now / WINDOW_MILLIS;
    int status;
    long retryAfter = 0;
    synchronized (WINDOWS) {
      long[] counted = WINDOWS.computeIfAbsent(client, k -> new long[2]);
      if (counted[0] != window) {
        counted[0] = window;
        counted[1] = 0;
      }
      status = ++counted[1] <= limit ? 200 : 429;
      if (status == 429) {
        retryAfter = Math.max(1, ((window + 1) * WINDOW_MILLIS - now + 999) / 1000);
      }
      CALLS.addLast(now + " " + client + " " + status + " " + retryAfter);
      if (CALLS.size() > KEPT) {
        CALLS.removeFirst();
      }
    }
    if (status == 200) {
      return Response.ok("quote for " + client + ": 42.00\n").build();
    }
    return Response.status(429)
        .header("Retry-After", Long.toString(retryAfter))
        .entity("partner limit: " + limit + " calls per 2 s\n")
        .build();
  }

  @GET
  @Path("calls")
  @Produces(MediaType.TEXT_PLAIN)
  public String calls() {
    synchronized (WINDOWS) {
      return CALLS_HEADER + "\n" + String.join("\n", CALLS) + (CALLS.isEmpty() ? "" : "\n");
    }
  }
}
