package io.github.limiter.cdi;

import jakarta.interceptor.InvocationContext;
import java.util.Optional;

/**
 * Finds the key (the client identity) of an intercepted call. Implement it as a {@code @Named}
 * bean, preferably {@code @ApplicationScoped} and stateless, and name it in {@code
 * @Limited(key = "resolver:<name>")} or {@code limiter.policy.<name>.key=resolver:<name>}.
 *
 * <pre>{@code
 * @Named("tenant") @ApplicationScoped
 * public class TenantKey implements KeyResolver {
 *   @Inject TenantContext tenant;
 *   public Optional<String> resolve(InvocationContext call) { return tenant.currentId(); }
 * }
 * }</pre>
 */
@FunctionalInterface
public interface KeyResolver {

  /**
   * The key of this call, or empty when there is none: then the policy's {@code on-missing-key}
   * applies. Must not proceed the call.
   */
  Optional<String> resolve(InvocationContext call);
}
