package io.github.limiter.demo;

import io.github.limiter.ActualCost;
import io.github.limiter.cdi.Limited;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A stand-in for a language model, limited by {@code @Limited} (policy {@code llm}): a completion
 * is charged the tokens it reserves (its first parameter) and, given what it used, settled to that
 * when the call ends.
 */
@ApplicationScoped
public class Completions {

  /**
   * Completes within {@code tokens}; {@code used}, when not null, is what the completion really
   * used.
   */
  @Limited(value = "llm", cost = "param:0")
  public String complete(int tokens, Integer used) {
    if (used == null) {
      return "completed, charged " + tokens(tokens) + "\n";
    }
    ActualCost.current().report(used);
    return "completed, reserved " + tokens(tokens) + ", charged " + tokens(used) + "\n";
  }

  /** "1 token", "2 tokens". */
  static String tokens(int count) {
    return count + (count == 1 ? " token" : " tokens");
  }
}
