package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.internal.live.LiveLimits;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Nodes over one Redis agree on a policy's live version: a change is published there with its
 * number, the other nodes apply it when they refresh, and a node that starts later starts with it.
 */
@ExtendWith(RedisExtension.class)
class RedisVersionBoardTest {

  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final Policy API = Policy.fixedWindow("api", Limit.of(10, Duration.ofHours(1)));

  private final ManualClock clock = ManualClock.random(41);
  private final List<RedisStore> stores = new ArrayList<>();
  private RedisServer server;
  private String prefix;

  @BeforeEach
  void server(RedisServer shared) {
    this.server = shared;
    this.prefix = "board:" + ProcessHandle.current().pid() + ":" + PREFIXES.incrementAndGet() + ":";
  }

  @AfterEach
  void close() {
    stores.forEach(RedisStore::close);
  }

  /** A node: its own store over the shared Redis and prefix, and its live limits. */
  private LiveLimits node() {
    RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .keyPrefix(prefix)
            .callerClock(clock)
            .decisionTimeout(Duration.ofSeconds(2))
            .socketTimeout(Duration.ofSeconds(2))
            .build();
    stores.add(store);
    return new LiveLimits(store);
  }

  private static int admitted(PolicyStore store, int tries) {
    int admitted = 0;
    for (int i = 0; i < tries; i++) {
      if (store.decide("k", 1).isAllowed()) {
        admitted++;
      }
    }
    return admitted;
  }

  @Test
  void aChangeOnOneNodeReachesTheOthersAndANodeThatStartsLater() {
    // Given two nodes, and a key that used 6 of 10
    LiveLimits a = node();
    LiveLimits b = node();
    PolicyStore onA = a.bind(API);
    PolicyStore onB = b.bind(API);
    assertThat(admitted(onA, 6)).isEqualTo(6);

    // When node a lowers the limit to 8
    assertThat(a.change("api", "8/1h").number()).isEqualTo(1);

    // Then node b decides under it once it refreshes, and the key keeps its count
    assertThat(b.version("api").orElseThrow().number()).isZero();
    b.refresh();
    assertThat(b.version("api").orElseThrow())
        .isEqualTo(
            new LiveLimits.Version(1, Policy.fixedWindow("api", Limit.of(8, Duration.ofHours(1)))));
    assertThat(admitted(onB, 10)).isEqualTo(2);
    assertThat(admitted(onA, 10)).isZero();

    // And a node that starts later, deployed with 10, starts with version 1
    LiveLimits late = node();
    PolicyStore onLate = late.bind(API);
    assertThat(late.version("api").orElseThrow().number()).isEqualTo(1);
    assertThat(onLate.policy().limits()).containsExactly(Limit.of(8, Duration.ofHours(1)));
    assertThat(admitted(onLate, 10)).isZero();
  }

  @Test
  void ofTwoChangesFromTheSameVersionOneWinsOnEveryNode() {
    LiveLimits a = node();
    LiveLimits b = node();
    a.bind(API);
    b.bind(API);

    a.change("api", "9/1h");

    assertThatThrownBy(() -> b.change("api", "7/1h"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("changed meanwhile to version 1");
    assertThat(b.version("api").orElseThrow().policy().limits())
        .containsExactly(Limit.of(9, Duration.ofHours(1)));
  }

  @Test
  void aBadLimitIsPublishedNowhere() {
    LiveLimits a = node();
    LiveLimits b = node();
    a.bind(API);
    b.bind(API);

    assertThatThrownBy(() -> a.change("api", "8 per hour"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("8 per hour");

    b.refresh();
    assertThat(b.version("api").orElseThrow().number()).isZero();
    assertThat(stores.get(0).read()).isEmpty();
  }
}
