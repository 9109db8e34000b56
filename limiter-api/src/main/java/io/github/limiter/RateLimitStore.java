package io.github.limiter;

import java.util.Objects;
import java.util.Optional;

/**
 * Where limiter state lives, and the clock it trusts. A store is the only thing that knows how a
 * key's state persists: a compare-and-set on a long in memory, or one atomic Lua call in Redis.
 * Implementations must be thread-safe. What only some stores can do, they offer as a {@link #view}.
 */
public interface RateLimitStore extends AutoCloseable {

  /** The clock a store trusts for {@code now}. */
  enum TimeSource {
    /** This JVM's monotonic clock (or one injected for tests). */
    LOCAL_MONOTONIC,
    /** The shared server's clock, e.g. Redis {@code TIME}: immune to client clock skew. */
    SERVER,
    /** Times supplied by the caller, e.g. the replay tool's trace. */
    CALLER
  }

  /**
   * Decides one request of {@code permits} for {@code key} under {@code policy}, charging every
   * limit of the policy or none. Never throws for an outage: the policy's failure mode applies.
   *
   * @param key the client identity, already bounded in length by the caller
   * @param permits the request's cost, at least 1
   */
  Decision decide(Policy policy, String key, long permits);

  /**
   * The primitive form of {@link #decide}, for callers that need only yes or no and when to retry:
   * 0 if the request was admitted (and charged), else the nanoseconds until the same request would
   * be, {@link Long#MAX_VALUE} if never. A store may serve it without allocating; this default
   * derives it from {@link #decide}.
   */
  default long tryAcquire(Policy policy, String key, long permits) {
    Decision decision = decide(policy, key, permits);
    return decision.isAllowed() ? 0 : Math.max(1, decision.retryAfterNanos());
  }

  /**
   * This store's decisions for {@code policy}, found once: a store that keeps its state per policy
   * returns a handle that skips finding it on every call. This default names the policy on each
   * call.
   */
  default PolicyStore bind(Policy policy) {
    return new UnboundPolicyStore(this, Objects.requireNonNull(policy, "policy"));
  }

  /**
   * Charges {@code delta} more permits to {@code key} under every limit of {@code policy}, or gives
   * back {@code -delta}, in one atomic step: a request's cost settled after {@link #decide} charged
   * it (its actual cost, or a refund when it does not count). A charge beyond what is left is kept
   * as debt that later requests wait out, up to one more capacity, and their retry-after includes
   * it; a refund gives back as well as the algorithm allows. Best effort, never throws.
   */
  void adjust(Policy policy, String key, long delta);

  /**
   * Gives back {@code permits} that {@link #decide} charged: {@link #adjust} by {@code -permits}.
   * For requests that several policies must admit all-or-nothing, and those that do not count.
   */
  default void refund(Policy policy, String key, long permits) {
    adjust(policy, key, -permits);
  }

  /**
   * This store as {@code capability}, if it offers it: an optional capability that only some stores
   * have, such as {@link LiveVersions} (changing limits while the application runs), {@link Peek}
   * (reading a key's state without charging it) and {@link UpstreamBlocks} (an upstream's shared
   * "blocked until"). Ask the store rather than test its type: a wrapper or a proxy of the store (a
   * CDI client proxy, say) forwards this call to the store, where a type test would see only the
   * proxy. This default answers the store itself if it is a {@code capability}.
   */
  default <T> Optional<T> view(Class<T> capability) {
    return capability.isInstance(this) ? Optional.of(capability.cast(this)) : Optional.empty();
  }

  /** Which clock this store's decisions use. */
  TimeSource timeSource();

  /** The store's health, for health checks and operators. */
  default StoreHealth health() {
    return StoreHealth.healthy();
  }

  /** Releases connections and background resources. */
  @Override
  default void close() {}
}
