package io.github.limiter.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Every peer configured the same way for one path. On the admit path the rate (10^9 per second) is
 * far above what two cores can ask, so every call is admitted. On the reject path the bucket is
 * drained in set-up and refills one permit per day, so every call is rejected.
 */
final class Peers {

  /** Which branch of the decision a benchmark measures. */
  enum Path {
    ADMIT,
    REJECT
  }

  static final long FAST = 1_000_000_000L;
  static final Duration SECOND = Duration.ofSeconds(1);
  static final Duration DAY = Duration.ofDays(1);

  private Peers() {}

  static Path path(String name) {
    return switch (name) {
      case "admit" -> Path.ADMIT;
      case "reject" -> Path.REJECT;
      default ->
          throw new IllegalArgumentException("path: expected admit or reject, was '" + name + "'");
    };
  }

  static Policy tokenBucket(Path path) {
    return path == Path.ADMIT
        ? Policy.tokenBucket("tb-admit", Limit.bucket(FAST, SECOND, FAST))
        : Policy.tokenBucket("tb-reject", Limit.bucket(1, DAY, 1).withInitial(0));
  }

  static Policy leakyBucket(Path path) {
    return path == Path.ADMIT
        ? Policy.leakyBucket("lb-admit", Limit.bucket(FAST, SECOND, FAST))
        : Policy.leakyBucket("lb-reject", Limit.bucket(1, DAY, 1));
  }

  static Bucket bucket4j(Path path) {
    return path == Path.ADMIT
        ? Bucket.builder()
            .addLimit(Bandwidth.builder().capacity(FAST).refillGreedy(FAST, SECOND).build())
            .build()
        : Bucket.builder()
            .addLimit(Bandwidth.builder().capacity(1).refillGreedy(1, DAY).initialTokens(0).build())
            .build();
  }

  static RateLimiter resilience4j(Path path) {
    RateLimiterConfig config =
        RateLimiterConfig.custom()
            .timeoutDuration(Duration.ZERO)
            .limitForPeriod(path == Path.ADMIT ? (int) FAST : 1)
            .limitRefreshPeriod(path == Path.ADMIT ? SECOND : DAY)
            .build();
    RateLimiter limiter = RateLimiter.of("r4j-" + path, config);
    if (path == Path.REJECT) {
      drain("resilience4j", limiter::acquirePermission);
    }
    return limiter;
  }

  static com.google.common.util.concurrent.RateLimiter guava(Path path) {
    com.google.common.util.concurrent.RateLimiter limiter =
        com.google.common.util.concurrent.RateLimiter.create(
            path == Path.ADMIT ? FAST : 1.0 / DAY.toSeconds());
    if (path == Path.REJECT) {
      drain("guava", limiter::tryAcquire);
    }
    return limiter;
  }

  static RawCasGcra raw(Path path) {
    RawCasGcra raw =
        path == Path.ADMIT ? new RawCasGcra(1, FAST) : new RawCasGcra(DAY.toNanos(), 1);
    if (path == Path.REJECT) {
      drain("raw CAS GCRA", raw::tryAcquire);
    }
    return raw;
  }

  /** Calls until the first rejection; a bucket of one permit needs at most a few calls. */
  static void drain(String peer, BooleanSupplier tryAcquire) {
    for (int i = 0; i < 10; i++) {
      if (!tryAcquire.getAsBoolean()) {
        return;
      }
    }
    throw new IllegalStateException(
        peer + ": still admitting after 10 calls, so the reject path would not be measured");
  }

  /** Fails the run when a peer is not on the path it is said to measure. */
  static void expect(String peer, Path path, boolean admitted) {
    if (admitted != (path == Path.ADMIT)) {
      throw new IllegalStateException(
          peer
              + ": expected every call to be "
              + (path == Path.ADMIT ? "admitted" : "rejected")
              + ", but one was "
              + (admitted ? "admitted" : "rejected"));
    }
  }
}
