package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.redis.RedisStore;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code max-call-time}, the safety net behind the clients' ends of a call: a call that never ends
 * (its client never showed its failure) gives its concurrency permit back once it is overdue, on
 * the policy's clock; on Redis, the node then stops holding it, so that another node admits again.
 */
@ExtendWith(RedisExtension.class)
class MaxCallTimeTest {

  private static final URI PARTNER = URI.create("https://api.partner.example/v1/quote");
  private static final Duration MAX_CALL_TIME = Duration.ofSeconds(30);
  private static final AtomicInteger RUNS = new AtomicInteger();

  private final ManualClock clock = ManualClock.random(11);
  private final List<Outbound> nodes = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private final Logger log = Logger.getLogger(OutboundLimiter.class.getName());
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          synchronized (warnings) {
            warnings.add(record.getMessage());
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void listen() {
    log.addHandler(capture);
  }

  @AfterEach
  void close() {
    log.removeHandler(capture);
    nodes.forEach(Outbound::close);
  }

  /** A node of outbound policy partner: one call in flight per upstream, over {@code store}. */
  private OutboundLimiter node(RateLimitStore store) {
    OutboundConfig partner =
        new OutboundConfig(
            Policy.concurrency("partner", 1, Duration.ofSeconds(1)),
            1,
            List.of("https://api.partner.example"),
            null,
            Duration.ZERO,
            false,
            Duration.ofMinutes(5),
            OutboundConfig.Retry.NONE,
            MAX_CALL_TIME);
    Outbound outbound =
        Outbound.of(
            List.of(partner),
            store,
            new OutboundLimiterTest.CountingRecorder(),
            Map.of(),
            clock,
            nanos -> clock.advance(nanos),
            Clock.systemUTC(),
            new Random(3));
    nodes.add(outbound);
    return outbound.policy("partner").orElseThrow();
  }

  @Test
  void inMemoryAnOverdueCallGivesItsPermitBack() {
    // Given a call that never ends
    OutboundLimiter partner = node(InMemoryStore.builder().clock(clock).build());
    partner.begin(PARTNER, null);
    clock.advance(MAX_CALL_TIME);
    // While it is not overdue, it holds its permit
    assertThat(partner.abandonOverdue()).isZero();
    assertThatThrownBy(() -> partner.begin(PARTNER, null))
        .isInstanceOf(OutboundLimitException.class);

    // When it is
    clock.advance(Duration.ofMillis(1));
    partner.abandonOverdue();

    // Then its permit is back, and a warning names the policy and the upstream
    assertThat(partner.openCalls()).isZero();
    partner.begin(PARTNER, null).abandon();
    assertThat(warnings)
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains("'partner'", "https://api.partner.example:443", "max-call-time"));
  }

  @Test
  void aCallThatEndsInTimeIsNotAbandonedTwice() {
    // Given a call that ended in time, and one that is still running
    OutboundLimiter partner = node(InMemoryStore.builder().clock(clock).build());
    partner.begin(PARTNER, null).end(200, name -> null);
    OutboundCall running = partner.begin(PARTNER, null);

    // When the first would have been overdue
    clock.advance(MAX_CALL_TIME.minusSeconds(1));

    // Then nothing is given back: the running call keeps its permit
    assertThat(partner.abandonOverdue()).isZero();
    assertThat(partner.openCalls()).isOne();
    running.end(200, name -> null);
    assertThat(partner.openCalls()).isZero();
  }

  @Test
  void onRedisAnOverdueCallOfOneNodeNoLongerLocksTheOtherOut(RedisServer redis) {
    // Given two nodes over one Redis, and node a's call that never ends
    String prefix = "max-call-time:" + ProcessHandle.current().pid() + ":" + RUNS.incrementAndGet();
    OutboundLimiter a = node(RedisStore.builder().url(redis.url()).keyPrefix(prefix).build());
    OutboundLimiter b = node(RedisStore.builder().url(redis.url()).keyPrefix(prefix).build());
    a.begin(PARTNER, null);
    assertThatThrownBy(() -> b.begin(PARTNER, null)).isInstanceOf(OutboundLimitException.class);

    // When it is overdue on node a's clock, the node's own sweep gives it back
    clock.advance(MAX_CALL_TIME.plusMillis(1));
    await().atMost(Duration.ofSeconds(5)).until(() -> a.openCalls() == 0);

    // Then node b admits a call again
    b.begin(PARTNER, null).abandon();
  }
}
