package io.github.limiter;

/**
 * A custom client identity, used by policies configured with {@code
 * limiter.policy.NAME.key=resolver:<name>} (and {@code @Limited(key = "resolver:<name>")}), e.g. a
 * tenant taken from a token. One type for the servlet filter and the {@code @Limited} interceptor.
 *
 * <p>Resolvers are found as CDI beans when CDI is present, and through {@link
 * java.util.ServiceLoader} ({@code META-INF/services/io.github.limiter.KeyResolver}). A policy
 * naming a resolver that neither finds, or that two classes answer to, fails the deployment.
 *
 * <p>Implementations must be thread-safe and fast: they run on every request under the policy.
 * Return null (or a blank string) when the request has no key; the policy's {@code on-missing-key}
 * then applies. The key is bounded by {@link Limiter#boundedKey}.
 */
public interface KeyResolver {

  /** The name used in {@code resolver:<name>}. */
  String name();

  /** The key of {@code request}, or null if it has none. */
  String resolve(RequestView request);
}
