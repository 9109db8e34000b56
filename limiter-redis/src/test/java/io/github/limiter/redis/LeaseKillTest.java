package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Policy;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A node killed with SIGKILL while it holds a slice: it strands at most that slice, and its lease
 * stops counting against the others at the lease's TTL.
 */
@ExtendWith(RedisExtension.class)
class LeaseKillTest {

  @Test
  void aNodeKilledWithSigkillStrandsAtMostItsSliceUntilTheTtl(RedisServer server) throws Exception {
    // Given a node in a JVM of its own that spent 10 permits of its lease of a bucket of 1000 that
    // does not refill
    Policy policy = LeaseNode.POLICY;
    String prefix = "lease-kill:" + UUID.randomUUID() + ":";
    Path log = Path.of("target", "lease-node-" + UUID.randomUUID() + ".log");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LeaseNode.class.getName(),
                server.url(),
                prefix,
                "10")
            .redirectError(log.toFile())
            .start();
    String node;
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String line =
          CompletableFuture.supplyAsync(
                  () -> {
                    try {
                      return out.readLine();
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  })
              .get(60, TimeUnit.SECONDS);
      assertThat(line).as("the child's first line; its stderr is in %s", log).startsWith("ready ");
      node = line.substring("ready ".length());

      // When it is killed with SIGKILL, so that it gives nothing back
      Process kill =
          new ProcessBuilder("kill", "-KILL", Long.toString(child.pid())).inheritIO().start();
      assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as("killed by signal 9").isEqualTo(128 + 9);
    } finally {
      child.destroyForcibly();
    }

    // Then its lease is still recorded, holding at most one slice, until the TTL
    String leases = LeaseModeTest.leaseKey(storeFor(server, prefix, false, Duration.ZERO), policy);
    Map<String, long[]> records = LeaseModeTest.hash(server, leases);
    assertThat(records).containsOnlyKeys(node);
    long held = records.get(node)[0];
    assertThat(held).isPositive().isLessThanOrEqualTo(LeaseModeTest.HELD);
    assertThat(records.get(node)[1]).isEqualTo(LeaseModeTest.TTL.toNanos() / 1000);

    // And what exact mode finds is the capacity less the 10 spent and the slice stranded, no less
    RedisStore exact = storeFor(server, prefix, false, Duration.ZERO);
    try {
      int admitted = 0;
      for (int i = 0; i < 1000; i++) {
        admitted += exact.decide(policy, "hot", 1).isAllowed() ? 1 : 0;
      }
      assertThat(admitted).isGreaterThanOrEqualTo(1000 - 10 - (int) LeaseModeTest.HELD);
      assertThat(admitted).isLessThanOrEqualTo(1000 - 10);
    } finally {
      exact.close();
    }

    // And once the TTL has passed, the next grant drops its lease: the others' fair share and
    // the bucket's capacity no longer count it
    RedisStore leased =
        storeFor(server, prefix, true, LeaseModeTest.TTL.plus(Duration.ofMillis(1)));
    try {
      leased.decide(policy, "hot", 1);
      assertThat(LeaseModeTest.hash(server, leases)).doesNotContainKey(node).hasSize(1);
    } finally {
      leased.close();
    }
    new File(log.toString()).delete();
  }

  /**
   * A store on the same keys whose caller time stands {@code elapsed} after the origin, where the
   * child's stands still.
   */
  private static RedisStore storeFor(
      RedisServer server, String prefix, boolean leased, Duration elapsed) {
    ManualClock clock = ManualClock.random(13);
    RedisStoreBuilder b =
        RedisStore.builder()
            .url(server.url())
            .keyPrefix(prefix)
            .callerClock(clock)
            .decisionTimeout(Duration.ofSeconds(2))
            .socketTimeout(Duration.ofSeconds(2));
    if (leased) {
      b.lease(
              LeaseNode.POLICY.name(),
              LeaseModeTest.REFRESH,
              LeaseModeTest.TTL,
              LeaseModeTest.MAX_SLICE,
              LeaseModeTest.LOW_WATER)
          .leaseInline();
    }
    RedisStore store = b.build();
    clock.advance(elapsed);
    return store;
  }
}
