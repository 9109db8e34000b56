package io.github.limiter.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/** A broken resolver: it must never turn into a 500. */
public class ThrowingResolver implements KeyResolver {

  @Override
  public String name() {
    return "boom";
  }

  @Override
  public Optional<String> resolve(HttpServletRequest request) {
    throw new IllegalStateException("resolver bug");
  }
}
