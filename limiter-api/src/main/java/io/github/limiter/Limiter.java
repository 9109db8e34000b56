package io.github.limiter;

import io.github.limiter.spi.RateLimitStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;

/**
 * The one core call: {@link #decide(Policy, String, long)} returns the {@link Decision} for a
 * request, and {@link #decideEach} the {@link Decisions} of a request under several policies, all
 * or nothing. Adapters {@link #bind} their policies once, resolve keys, call one of these, and
 * render the result.
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

  /** Decides a request that every one of {@code policies} must admit, one permit each, all enforced. */
  public static Decisions decideEach(List<PolicyLimiter> policies, IntFunction<String> keyAt) {
    return decideEach(policies, keyAt, i -> 1, i -> true);
  }

  /**
   * Decides a request under each of {@code policies} in turn: the {@code i}th with the key {@code
   * keyAt(i)} and the permits {@code permitsAt(i)}. A policy whose key is null is skipped (not
   * decided, nothing charged). The first rejection by an enforced policy ({@code enforcedAt(i)})
   * ends the walk: the permits already charged for this request are given back, and it is the
   * {@link Decisions#rejection()}. A rejection by a policy that is not enforced (dry run) is kept
   * and the walk goes on; it charged nothing. If deciding throws (a store, a key function), what
   * was charged is given back too.
   *
   * <p>One policy costs one {@link Decisions} object on top of its decision.
   *
   * @throws IllegalArgumentException if some {@code permits} is below 1
   */
  public static Decisions decideEach(
      List<PolicyLimiter> policies, IntFunction<String> keyAt, IntToLongFunction permitsAt, IntPredicate enforcedAt) {
    int n = policies.size();
    if (n == 0) {
      return Decisions.empty();
    }
    if (n == 1) {
      String key = keyAt.apply(0);
      return key == null
          ? Decisions.ofOne(null, true)
          : Decisions.ofOne(policies.get(0).decide(key, permitsAt.applyAsLong(0)), enforcedAt.test(0));
    }
    Decision[] each = new Decision[n];
    // The bounded keys and permits of what was charged, to give back on a rejection or a failure.
    String[] charged = new String[n];
    long[] permits = new long[n];
    try {
      for (int i = 0; i < n; i++) {
        String key = keyAt.apply(i);
        if (key == null) {
          continue;
        }
        // Bounded once: a long key's digest serves the decision and a refund alike.
        String bounded = boundedKey(key);
        long cost = permitsAt.applyAsLong(i);
        Decision decision = policies.get(i).decide(bounded, cost);
        each[i] = decision;
        if (decision.isAllowed()) {
          charged[i] = bounded;
          permits[i] = cost;
        } else if (enforcedAt.test(i)) {
          refund(policies, charged, permits, i);
          return Decisions.of(each, i);
        }
      }
    } catch (RuntimeException | Error e) {
      refund(policies, charged, permits, n);
      throw e;
    }
    return Decisions.of(each, -1);
  }

  private static void refund(List<PolicyLimiter> policies, String[] charged, long[] permits, int upTo) {
    for (int j = 0; j < upTo; j++) {
      if (charged[j] != null) {
        policies.get(j).refund(charged[j], permits[j]);
        charged[j] = null;
      }
    }
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
