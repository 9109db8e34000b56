package io.github.limiter;

import io.github.limiter.spi.RateLimitStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The one core call: {@link #decide(Policy, String, long)} returns the {@link Decision} for a
 * request. Adapters resolve a key, call this, and render the decision.
 *
 * <pre>{@code
 * Limiter limiter = Limiter.of(InMemoryStore.builder().build());
 * Decision decision = limiter.decide(api, clientAddress, 1);
 * if (!decision.isAllowed()) { ...429, Retry-After: decision.retryAfter()... }
 * }</pre>
 */
public final class Limiter implements AutoCloseable {

  /** Keys longer than this are replaced by a digest, so a client cannot make state grow with key length. */
  public static final int MAX_KEY_LENGTH = 128;

  private final RateLimitStore store;

  private Limiter(RateLimitStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /** A limiter over {@code store}. */
  public static Limiter of(RateLimitStore store) {
    return new Limiter(store);
  }

  /** The store this limiter decides with. */
  public RateLimitStore store() {
    return store;
  }

  /** Decides a request of one permit. */
  public Decision decide(Policy policy, String key) {
    return decide(policy, key, 1);
  }

  /**
   * Decides a request of {@code permits} for {@code key} under {@code policy}: all of the policy's
   * limits admit it, or none is charged.
   *
   * @throws IllegalArgumentException if {@code permits} is below 1
   */
  public Decision decide(Policy policy, String key, long permits) {
    Objects.requireNonNull(policy, "policy");
    if (permits < 1) {
      throw new IllegalArgumentException("permits must be at least 1, was " + permits);
    }
    return store.decide(policy, boundedKey(key), permits);
  }

  /**
   * Decides a request that several policies must all admit. If one rejects, the permits already
   * charged by the others are given back, and its rejection is returned. Otherwise the admission
   * with the fewest remaining permits is returned.
   */
  public Decision decideAll(List<Policy> policies, Function<? super Policy, String> keyFor, long permits) {
    if (policies.size() == 1) {
      Policy only = policies.get(0);
      return decide(only, keyFor.apply(only), permits);
    }
    Decision tightest = null;
    for (int i = 0; i < policies.size(); i++) {
      Policy policy = policies.get(i);
      Decision decision = decide(policy, keyFor.apply(policy), permits);
      if (!decision.isAllowed()) {
        for (int j = 0; j < i; j++) {
          Policy charged = policies.get(j);
          store.refund(charged, boundedKey(keyFor.apply(charged)), permits);
        }
        return decision;
      }
      if (tightest == null || decision.remaining() < tightest.remaining()) {
        tightest = decision;
      }
    }
    if (tightest == null) {
      throw new IllegalArgumentException("policies must not be empty");
    }
    return tightest;
  }

  /**
   * {@code key} itself if it is at most {@link #MAX_KEY_LENGTH} characters, else a SHA-256 digest
   * of it; null or empty becomes {@code ""}, one shared key.
   */
  public static String boundedKey(String key) {
    if (key == null) {
      return "";
    }
    if (key.length() <= MAX_KEY_LENGTH) {
      return key;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
