package io.github.limiter.internal.render;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A rejection as plain data, for an adapter that builds a response object (the JAX-RS mapper); the
 * servlet filter has {@link ResponseRenderer#reject} write straight to its response. Either way the
 * renderer writes the 429, in one place.
 *
 * @param status 429 (or as configured), or 503 for a fail-closed store outage
 * @param headers header names and values, in order
 * @param contentType {@code application/problem+json}
 * @param body the RFC 9457 problem document
 */
public record RateLimitResponse(
    int status, List<Map.Entry<String, String>> headers, String contentType, String body) {

  public RateLimitResponse {
    headers = List.copyOf(headers);
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
  }

  /** The value of header {@code name} (case-insensitive), or null. */
  public String header(String name) {
    for (Map.Entry<String, String> header : headers) {
      if (header.getKey().equalsIgnoreCase(name)) {
        return header.getValue();
      }
    }
    return null;
  }
}
