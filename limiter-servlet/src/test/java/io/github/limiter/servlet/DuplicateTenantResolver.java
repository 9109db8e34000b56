package io.github.limiter.servlet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/** A CDI bean that claims the name of the ServiceLoader's TenantResolver: an ambiguity. */
@ApplicationScoped
public class DuplicateTenantResolver implements KeyResolver {

  @Override
  public String name() {
    return "tenant";
  }

  @Override
  public Optional<String> resolve(HttpServletRequest request) {
    return Optional.empty();
  }
}
