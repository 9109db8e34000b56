package io.github.limiter.sample.quarkus;

import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.ApplicationScoped;

/** The CDI bean under {@code @Limited}: 2 calls a minute per client. */
@ApplicationScoped
public class Greeter {

  /**
   * Limited by policy {@code conformance-limited}, keyed by the client's {@code X-Client} header,
   * which the resource passes: Quarkus REST requests are no servlet requests, so the key comes from
   * the parameter.
   */
  @Limited(value = "conformance-limited", key = "param:client")
  public String limited(String client) {
    return "limited";
  }
}
