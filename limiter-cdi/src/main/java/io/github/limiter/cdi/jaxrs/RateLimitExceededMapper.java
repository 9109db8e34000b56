package io.github.limiter.cdi.jaxrs;

import io.github.limiter.cdi.RateLimitExceededException;
import io.github.limiter.internal.render.RateLimitResponse;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;

/**
 * Turns a {@link RateLimitExceededException} into the same response as the servlet filter's: 429
 * (or as configured) with {@code Retry-After}, {@code Cache-Control: no-store}, the {@code
 * RateLimit} headers and an {@code application/problem+json} body. It only copies what {@link
 * io.github.limiter.internal.render.ResponseRenderer} rendered. Found by JAX-RS {@code @Provider}
 * scanning.
 */
@Provider
public class RateLimitExceededMapper implements ExceptionMapper<RateLimitExceededException> {

  @Override
  public Response toResponse(RateLimitExceededException exception) {
    RateLimitResponse rendered = exception.response();
    Response.ResponseBuilder response =
        Response.status(rendered.status()).type(rendered.contentType()).entity(rendered.body());
    for (Map.Entry<String, String> header : rendered.headers()) {
      response.header(header.getKey(), header.getValue());
    }
    return response.build();
  }
}
