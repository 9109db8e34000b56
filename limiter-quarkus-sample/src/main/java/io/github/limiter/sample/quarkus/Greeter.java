package io.github.limiter.sample.quarkus;

import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The CDI bean under {@code @Limited}. Its keys come from the Quarkus REST request the call serves,
 * as the policies say: {@code header:X-Client} and {@code remote-address}.
 */
@ApplicationScoped
public class Greeter {

  /** Limited by policy {@code conformance-limited}: 2 calls a minute per {@code X-Client}. */
  @Limited("conformance-limited")
  public String limited() {
    return "limited";
  }

  /** Limited by policy {@code sample-address}: 2 calls a minute per client address. */
  @Limited("sample-address")
  public String byAddress() {
    return "by-address";
  }

  /**
   * Limited by policy {@code sample-both}, which the route over {@code /api/both/*} applies too: a
   * request through both counts once.
   */
  @Limited("sample-both")
  public String both() {
    return "both";
  }
}
