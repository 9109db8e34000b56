package io.github.limiter.servlet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/** A resolver that exists only as a CDI bean: the tenant of header X-Cdi-Tenant. */
@ApplicationScoped
public class CdiTenantResolver implements KeyResolver {

  @Override
  public String name() {
    return "cdi-tenant";
  }

  @Override
  public Optional<String> resolve(HttpServletRequest request) {
    return Optional.ofNullable(request.getHeader("X-Cdi-Tenant"));
  }
}
