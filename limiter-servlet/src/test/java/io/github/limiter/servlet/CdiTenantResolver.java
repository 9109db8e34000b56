package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;
import jakarta.enterprise.context.ApplicationScoped;

/** A resolver that exists only as a CDI bean: the tenant of header X-Cdi-Tenant. */
@ApplicationScoped
public class CdiTenantResolver implements KeyResolver {

  @Override
  public String name() {
    return "cdi-tenant";
  }

  @Override
  public String resolve(RequestView request) {
    return request.header("X-Cdi-Tenant");
  }
}
