package io.github.limiter.http;

import java.util.HashSet;
import java.util.Set;

/**
 * The policies already charged for the request this thread is serving, so that a request passing
 * both the servlet filter and a {@code @Limited} interceptor under the same policy counts once. The
 * filter opens a scope around the chain; the interceptor skips policies found in it.
 */
public final class ChargedPolicies {

  private static final ThreadLocal<Set<String>> CHARGED = new ThreadLocal<>();

  private ChargedPolicies() {}

  /** A scope in which {@code policies} count as charged; closing it restores the outer scope. */
  public static Scope open(Iterable<String> policies) {
    Set<String> outer = CHARGED.get();
    Set<String> inner = outer == null ? new HashSet<>() : new HashSet<>(outer);
    policies.forEach(inner::add);
    CHARGED.set(inner);
    return () -> {
      if (outer == null) {
        CHARGED.remove();
      } else {
        CHARGED.set(outer);
      }
    };
  }

  /** Whether {@code policy} was charged for the current request. */
  public static boolean contains(String policy) {
    Set<String> charged = CHARGED.get();
    return charged != null && charged.contains(policy);
  }

  /** Closes without checked exceptions. */
  @FunctionalInterface
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
