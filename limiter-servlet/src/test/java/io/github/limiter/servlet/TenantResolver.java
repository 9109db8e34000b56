package io.github.limiter.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/** A resolver found through ServiceLoader: the tenant of header X-Tenant. */
public class TenantResolver implements KeyResolver {

  @Override
  public String name() {
    return "tenant";
  }

  @Override
  public Optional<String> resolve(HttpServletRequest request) {
    return Optional.ofNullable(request.getHeader("X-Tenant"));
  }
}
