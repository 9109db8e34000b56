package io.github.limiter.servlet;

import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;

/** A resolver found through ServiceLoader: the customer's time zone, from header X-Zone. */
public class CustomerZoneResolver implements KeyResolver {

  @Override
  public String name() {
    return "customer-zone";
  }

  @Override
  public String resolve(RequestView request) {
    return request.header("X-Zone");
  }
}
