package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;
import jakarta.enterprise.context.ApplicationScoped;

/** A CDI bean that claims the name of the ServiceLoader's TenantResolver: an ambiguity. */
@ApplicationScoped
public class DuplicateTenantResolver implements KeyResolver {

  @Override
  public String name() {
    return "tenant";
  }

  @Override
  public String resolve(RequestView request) {
    return null;
  }
}
