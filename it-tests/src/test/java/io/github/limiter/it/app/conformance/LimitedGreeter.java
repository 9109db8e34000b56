package io.github.limiter.it.app.conformance;

import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.ApplicationScoped;

/** A plain CDI bean whose method is limited; its policy's key is the X-Client header. */
@ApplicationScoped
public class LimitedGreeter {

  @Limited("conformance-limited")
  public String limited() {
    return "limited";
  }
}
