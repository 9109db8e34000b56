package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;

/** A resolver found through ServiceLoader: the tenant of header X-Tenant. */
public class TenantResolver implements KeyResolver {

  @Override
  public String name() {
    return "tenant";
  }

  @Override
  public String resolve(RequestView request) {
    return request.header("X-Tenant");
  }
}
