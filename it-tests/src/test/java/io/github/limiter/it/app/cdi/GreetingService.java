package io.github.limiter.it.app.cdi;

import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.ApplicationScoped;

/** A plain CDI bean, limited per user (its first parameter). */
@ApplicationScoped
public class GreetingService {

  @Limited(value = "bean", key = "param:0")
  public String greet(String user) {
    return "hello " + user;
  }
}
