package io.github.limiter.demo;

import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;

/**
 * The plan of a request, for policy {@code llm}: {@code pro} for API keys that start with {@code
 * pro-}, else none (the free plan). A stand-in for looking the key's plan up in a customer
 * database; found through ServiceLoader ({@code META-INF/services/io.github.limiter.KeyResolver}).
 */
public class PlanByApiKey implements KeyResolver {

  @Override
  public String name() {
    return "plan-by-api-key";
  }

  @Override
  public String resolve(RequestView request) {
    String key = request.header("X-Api-Key");
    return key != null && key.startsWith("pro-") ? "pro" : null;
  }
}
