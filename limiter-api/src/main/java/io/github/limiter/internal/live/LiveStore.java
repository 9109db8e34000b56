package io.github.limiter.internal.live;

import io.github.limiter.Decision;
import io.github.limiter.Limiter;
import io.github.limiter.Peek;
import io.github.limiter.Policy;
import io.github.limiter.PolicyLimiter;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.StoreHealth;
import io.github.limiter.UpstreamBlocks;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store that adapters bind their policies through: {@link #bind} returns a handle that always
 * decides under the policy's current version, with its key overrides. Everything else goes to the
 * store it wraps, which it does not own: closing it closes nothing. It offers the views of that
 * store that hold whatever the version: {@link Peek} (under the current version) and {@link
 * UpstreamBlocks}.
 */
public final class LiveStore implements RateLimitStore, Peek {

  private final RateLimitStore store;
  private final PolicyVersions versions;
  private final LiveCalendars calendars;

  /** The wrapped store's {@link Peek}, or null if it offers none. */
  private final Peek peek;

  /** This as a limiter, and the policies it bound for adapters: see {@link #limiter}. */
  private final Limiter asLimiter = Limiter.of(this);

  private final Map<Policy, PolicyLimiter> limiters = new ConcurrentHashMap<>();

  LiveStore(RateLimitStore store, PolicyVersions versions, LiveCalendars calendars) {
    this.store = store;
    this.versions = versions;
    this.calendars = calendars;
    this.peek = store.view(Peek.class).orElse(null);
  }

  /** The wrapped store's {@link UpstreamBlocks}, and {@link Peek} if that store offers one. */
  @Override
  public <T> Optional<T> view(Class<T> capability) {
    if (capability == UpstreamBlocks.class) {
      return store.view(capability); // an upstream's block is the store's, whatever the version
    }
    if (capability == Peek.class && peek == null) {
      return Optional.empty();
    }
    return RateLimitStore.super.view(capability);
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

  /** The key's state under the policy's current version, whatever its override. */
  @Override
  public Decision peek(Policy policy, String key) {
    return peek(bind(policy), key);
  }

  /**
   * The key's state under the current version of a live handle's policy, whatever its override; any
   * other handle (a key's own limits) is the wrapped store's.
   */
  @Override
  public Decision peek(PolicyStore bound, String key) {
    if (bound instanceof LivePolicy live) {
      return peek.peek(live.current().bound(), key);
    }
    if (bound instanceof LiveCalendar zoned) {
      return peek.peek(zoned.bound(), key);
    }
    return peek.peek(bound, key);
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
