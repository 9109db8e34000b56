package io.github.limiter;

import java.util.Objects;

/**
 * A {@link Limiter} bound to one policy, from {@link Limiter#bind}: the same decisions, without
 * finding the policy's state on every call. Bind each policy once, at start-up, and keep the
 * result; it is thread-safe.
 *
 * <pre>{@code
 * PolicyLimiter api = limiter.bind(Policy.tokenBucket("api", Limit.bucket(10, Duration.ofSeconds(1), 20)));
 * Decision decision = api.decide(clientAddress);
 * }</pre>
 */
public final class PolicyLimiter {

  private final PolicyStore store;

  private PolicyLimiter(PolicyStore store) {
    this.store = store;
  }

  /** The policy this limiter decides. */
  public Policy policy() {
    return store.policy();
  }

  /** Decides a request of one permit. */
  public Decision decide(String key) {
    return store.decide(Limiter.boundedKey(key), 1);
  }

  /**
   * As {@link Limiter#decide(Policy, String, long)} under this policy.
   *
   * @throws IllegalArgumentException if {@code permits} is below 1
   */
  public Decision decide(String key, long permits) {
    return store.decide(Limiter.boundedKey(key), checked(permits));
  }

  /** As {@link #tryAcquire(String, long)} for one permit. */
  public long tryAcquire(String key) {
    return store.tryAcquire(Limiter.boundedKey(key), 1);
  }

  /**
   * As {@link Limiter#tryAcquire(Policy, String, long)} under this policy: 0 if admitted, else the
   * nanoseconds until the same request would be ({@link Long#MAX_VALUE}: never).
   *
   * @throws IllegalArgumentException if {@code permits} is below 1
   */
  public long tryAcquire(String key, long permits) {
    return store.tryAcquire(Limiter.boundedKey(key), checked(permits));
  }

  /**
   * Gives back {@code permits} that a decision for {@code key} charged, as well as the algorithm
   * allows: for a request that several policies must admit all or nothing. Best effort.
   */
  public void refund(String key, long permits) {
    store.refund(Limiter.boundedKey(key), permits);
  }

  /**
   * Charges {@code delta} more permits to {@code key}, or gives back {@code -delta}: settles a
   * request whose actual cost differs from what {@link #decide} charged. A charge beyond what is
   * left is debt that later requests wait out, up to one more capacity. Best effort.
   */
  public void adjust(String key, long delta) {
    store.adjust(Limiter.boundedKey(key), delta);
  }

  static long checked(long permits) {
    if (permits < 1) {
      throw new IllegalArgumentException("permits must be at least 1, was " + permits);
    }
    return permits;
  }

  @Override
  public String toString() {
    return "PolicyLimiter[" + store.policy() + "]";
  }

  static PolicyLimiter of(PolicyStore store) {
    return new PolicyLimiter(Objects.requireNonNull(store, "store"));
  }
}
