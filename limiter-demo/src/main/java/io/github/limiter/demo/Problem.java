package io.github.limiter.demo;

import jakarta.ws.rs.core.Response;

/**
 * The demo's own answers that are errors, as RFC 9457 problem documents: the status's type ({@code
 * about:blank}) and title, and a detail for the person who reads it.
 */
final class Problem {

  static final String JSON = "application/problem+json";

  private Problem() {}

  /** A JAX-RS answer with this problem. */
  static Response response(Response.Status status, String detail) {
    return Response.status(status).type(JSON).entity(json(status, detail)).build();
  }

  /**
   * The problem document; markup characters are escaped too, so no client's value reads as markup.
   */
  static String json(Response.Status status, String detail) {
    StringBuilder json =
        new StringBuilder("{\"type\":\"about:blank\",\"title\":\"")
            .append(status.getReasonPhrase())
            .append("\",\"status\":")
            .append(status.getStatusCode())
            .append(",\"detail\":\"");
    for (char c : detail.toCharArray()) {
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    return json.append("\"}").toString();
  }
}
