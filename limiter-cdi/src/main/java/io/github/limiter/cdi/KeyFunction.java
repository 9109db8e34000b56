package io.github.limiter.cdi;

import io.github.limiter.internal.http.ClientKeys;
import jakarta.interceptor.InvocationContext;
import java.util.Optional;

/** Finds one policy's key for one call; empty when the source has none (then on-missing-key applies). */
@FunctionalInterface
interface KeyFunction {

  /** The key every caller shares: a global limit, and what web sources yield outside a web request. */
  Optional<String> CONSTANT = Optional.of(ClientKeys.CONSTANT);

  Optional<String> key(InvocationContext call);
}
