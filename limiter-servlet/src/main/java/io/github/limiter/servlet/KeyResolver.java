package io.github.limiter.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * A custom client identity, used by policies configured with {@code
 * limiter.policy.NAME.key=resolver:<name>}, e.g. a tenant taken from a token.
 *
 * <p>Resolvers are found as CDI beans when CDI is present, and through {@link
 * java.util.ServiceLoader} ({@code META-INF/services/io.github.limiter.servlet.KeyResolver}). A
 * policy naming a resolver that neither finds fails the deployment.
 *
 * <p>Implementations must be thread-safe and fast: they run on every request under the policy.
 * Return empty when the request has no key; the policy's {@code on-missing-key} then applies. A
 * resolver that throws is treated as returning empty. The key is bounded by {@link
 * io.github.limiter.Limiter#boundedKey}.
 */
public interface KeyResolver {

  /** The name used in {@code resolver:<name>}. */
  String name();

  /** The key of {@code request}, or empty if it has none. */
  Optional<String> resolve(HttpServletRequest request);
}
