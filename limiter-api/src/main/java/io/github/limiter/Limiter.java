package io.github.limiter;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;

/**
 * The one core call: {@link #decide(Policy, String, long)} returns the {@link Decision} for a
 * request. Adapters {@link #bind} their policies once, resolve keys, decide, and render the result.
 *
 * <pre>{@code
 * Limiter limiter = Limiter.of(InMemoryStore.builder().build());
 * Decision decision = limiter.decide(api, clientAddress, 1);
 * if (!decision.isAllowed()) { ...429, Retry-After: decision.retryAfter()... }
 * }</pre>
 */
public final class Limiter implements AutoCloseable {

  /**
   * Keys longer than this are replaced by a digest, so a client cannot make state grow with key
   * length.
   */
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

  /**
   * This limiter bound to {@code policy}: the same decisions, minus finding the policy's state on
   * each call. Adapters bind every configured policy once, at start-up.
   */
  public PolicyLimiter bind(Policy policy) {
    return PolicyLimiter.of(store.bind(Objects.requireNonNull(policy, "policy")));
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
    return store.decide(policy, boundedKey(key), PolicyLimiter.checked(permits));
  }

  /**
   * The primitive form of {@link #decide(Policy, String, long)}: 0 if admitted, else the
   * nanoseconds until the same request would be ({@link Long#MAX_VALUE}: never). The in-memory
   * store answers it without allocating for single-limit token buckets, leaky buckets and fixed
   * windows.
   *
   * @throws IllegalArgumentException if {@code permits} is below 1
   */
  public long tryAcquire(Policy policy, String key, long permits) {
    Objects.requireNonNull(policy, "policy");
    return store.tryAcquire(policy, boundedKey(key), PolicyLimiter.checked(permits));
  }

  /**
   * {@code key} itself if it is at most {@link #MAX_KEY_LENGTH} characters, else a SHA-256 digest
   * of it; null or empty becomes {@code ""}, one shared key.
   */
  static String boundedKey(String key) {
    if (key == null) {
      return "";
    }
    if (key.length() <= MAX_KEY_LENGTH) {
      return key;
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
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
