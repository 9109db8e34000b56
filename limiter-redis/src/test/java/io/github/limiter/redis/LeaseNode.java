package io.github.limiter.redis;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import java.time.Duration;

/**
 * A node in a JVM of its own, for {@link LeaseKillTest}: it takes a lease of {@link #POLICY} on key
 * {@code hot}, spends {@code args[2]} permits of it, prints {@code ready <node id>}, and waits to
 * be killed. Its clock stands still at the origin of caller time, as the test's does until it moves
 * it.
 */
public final class LeaseNode {

  static final Policy POLICY =
      Policy.tokenBucket("lease-kill", Limit.bucket(1, Duration.ofDays(1), 1000));

  private LeaseNode() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String prefix = args[1];
    int spend = Integer.parseInt(args[2]);
    RedisStore store =
        RedisStore.builder()
            .url(url)
            .keyPrefix(prefix)
            .callerClock(() -> 0L)
            .lease(
                POLICY.name(),
                LeaseModeTest.REFRESH,
                LeaseModeTest.TTL,
                LeaseModeTest.MAX_SLICE,
                LeaseModeTest.LOW_WATER)
            .leaseInline()
            .build();
    for (int i = 0; i < spend; i++) {
      if (!store.decide(POLICY, "hot", 1).isAllowed()) {
        throw new IllegalStateException("decision " + i + " was not admitted");
      }
    }
    System.out.println("ready " + store.leases().node);
    System.out.flush();
    // Until SIGKILL: the store is never closed, so its slice is never given back.
    while (System.in.read() >= 0) {
      Thread.onSpinWait();
    }
  }
}
