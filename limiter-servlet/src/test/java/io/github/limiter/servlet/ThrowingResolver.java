package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;

/** A broken resolver: it must never turn into a 500. */
public class ThrowingResolver implements KeyResolver {

  @Override
  public String name() {
    return "boom";
  }

  @Override
  public String resolve(RequestView request) {
    throw new IllegalStateException("resolver bug");
  }
}
