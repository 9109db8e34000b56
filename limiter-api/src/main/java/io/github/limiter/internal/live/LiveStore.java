package io.github.limiter.internal.live;

import io.github.limiter.Decision;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.StoreHealth;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store that adapters bind their policies through: {@link #bind} returns a handle that always
 * decides under the policy's current version, with its key overrides. Everything else goes to the
 * store it wraps, which it does not own: closing it closes nothing.
 */
public final class LiveStore implements RateLimitStore {

  private final RateLimitStore store;
  private final PolicyVersions versions;
  private final LiveCalendars calendars;

  /** This as a limiter, and the policies it bound for adapters: see {@link #limiter}. */
  private final Limiter asLimiter = Limiter.of(this);

  private final Map<Policy, PolicyLimiter> limiters = new ConcurrentHashMap<>();

  LiveStore(RateLimitStore store, PolicyVersions versions, LiveCalendars calendars) {
    this.store = store;
    this.versions = versions;
    this.calendars = calendars;
  }

  /**
   * The live handle of {@code policy}: the first policy bound under a name is its version 0, or the
   * version the store's board publishes; a later bind of that name returns the same handle, but in
   * the calendar of the later policy's quotas when that is another (see {@link
   * LiveCalendars#inCalendarOfQuotas}).
   */
  @Override
  public PolicyStore bind(Policy policy) {
    Objects.requireNonNull(policy, "policy");
    return calendars.inCalendarOfQuotas(versions.bind(policy), policy);
  }

  /**
   * {@code policy} bound for the places of an adapter (routes, {@code @Limited} methods): each
   * policy, by value, once, so that places naming it share its limiter; a version of it in a
   * request's quota zone is a value of its own, bound in that calendar (see {@link #bind}). Safe
   * from request threads, which bind those versions.
   */
  public PolicyLimiter limiter(Policy policy) {
    PolicyLimiter found = limiters.get(policy);
    return found != null ? found : limiters.computeIfAbsent(policy, asLimiter::bind);
  }

  // The store's other calls, for callers that name the policy: the policy's current version.

  @Override
  public Decision decide(Policy policy, String key, long permits) {
    return bind(policy).decide(key, permits);
  }

  @Override
  public long tryAcquire(Policy policy, String key, long permits) {
    return bind(policy).tryAcquire(key, permits);
  }

  @Override
  public void adjust(Policy policy, String key, long delta) {
    bind(policy).adjust(key, delta);
  }

  @Override
  public Decision peek(Policy policy, String key) {
    return bind(policy).peek(key);
  }

  /** An upstream's block is the store's, whatever the policy's version. */
  @Override
  public long block(Policy policy, String key, long nanos) {
    return store.block(policy, key, nanos);
  }

  @Override
  public TimeSource timeSource() {
    return store.timeSource();
  }

  @Override
  public StoreHealth health() {
    return store.health();
  }
}
