package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.internal.live.KeyOverride;
import io.github.limiter.internal.live.LiveBoard;
import io.github.limiter.internal.live.LiveLimits;
import io.github.limiter.internal.live.PolicyVersion;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Nodes over one Redis agree on a policy's live version and on the keys' overrides: a change is
 * published there, the other nodes apply it when they refresh, and a node that starts later starts
 * with it.
 */
@ExtendWith(RedisExtension.class)
class RedisLiveBoardTest {

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
    return new LiveLimits(store(), clock);
  }

  /** A store of its own over the shared Redis and prefix. */
  private RedisStore store() {
    RedisStore store =
        RedisStore.builder()
            .url(server.url())
            .keyPrefix(prefix)
            .callerClock(clock)
            .decisionTimeout(Duration.ofSeconds(2))
            .socketTimeout(Duration.ofSeconds(2))
            .build();
    stores.add(store);
    return store;
  }

  /**
   * {@code store} as a CDI container injects an application-scoped bean of type {@link
   * RateLimitStore}: a proxy of that interface alone, which forwards every call to the store.
   */
  private static RateLimitStore clientProxy(RateLimitStore store) {
    return (RateLimitStore)
        Proxy.newProxyInstance(
            RateLimitStore.class.getClassLoader(),
            new Class<?>[] {RateLimitStore.class},
            (proxy, method, args) -> {
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private static int admitted(PolicyStore store, int tries) {
    return admitted(store, "k", tries);
  }

  private static int admitted(PolicyStore store, String key, int tries) {
    int admitted = 0;
    for (int i = 0; i < tries; i++) {
      if (store.decide(key, 1).isAllowed()) {
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
    PolicyStore onA = a.store().bind(API);
    PolicyStore onB = b.store().bind(API);
    assertThat(admitted(onA, 6)).isEqualTo(6);

    // When node a lowers the limit to 8
    assertThat(a.policies().change("api", "8/1h").number()).isEqualTo(1);

    // Then node b decides under it once it refreshes, and the key keeps its count
    assertThat(b.policies().version("api").orElseThrow().number()).isZero();
    b.policies().refresh();
    assertThat(b.policies().version("api").orElseThrow())
        .isEqualTo(
            new PolicyVersion(1, Policy.fixedWindow("api", Limit.of(8, Duration.ofHours(1)))));
    assertThat(admitted(onB, 10)).isEqualTo(2);
    assertThat(admitted(onA, 10)).isZero();

    // And a node that starts later, deployed with 10, starts with version 1
    LiveLimits late = node();
    PolicyStore onLate = late.store().bind(API);
    assertThat(late.policies().version("api").orElseThrow().number()).isEqualTo(1);
    assertThat(onLate.policy().limits()).containsExactly(Limit.of(8, Duration.ofHours(1)));
    assertThat(admitted(onLate, 10)).isZero();
  }

  @Test
  void ofTwoChangesFromTheSameVersionOneWinsOnEveryNode() {
    LiveLimits a = node();
    LiveLimits b = node();
    a.store().bind(API);
    b.store().bind(API);

    a.policies().change("api", "9/1h");

    assertThatThrownBy(() -> b.policies().change("api", "7/1h"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("changed meanwhile to version 1");
    assertThat(b.policies().version("api").orElseThrow().policy().limits())
        .containsExactly(Limit.of(9, Duration.ofHours(1)));
  }

  @Test
  void aBadLimitIsPublishedNowhere() {
    LiveLimits a = node();
    LiveLimits b = node();
    a.store().bind(API);
    b.store().bind(API);

    assertThatThrownBy(() -> a.policies().change("api", "8 per hour"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("8 per hour");

    b.policies().refresh();
    assertThat(b.policies().version("api").orElseThrow().number()).isZero();
    assertThat(stores.get(0).view(LiveBoard.class).orElseThrow().read()).isEmpty();
  }

  @Test
  void aBlockedKeyIsRefusedAndAnExemptKeyPassesOnEveryNodeUntilTheyExpireOnTime() {
    // Given two nodes
    LiveLimits a = node();
    LiveLimits b = node();
    PolicyStore onA = a.store().bind(API);
    PolicyStore onB = b.store().bind(API);

    // When node a blocks one key for 10 minutes and exempts another for 20
    a.overrides().set("api", "abuser", KeyOverride.Kind.BLOCK, null, Duration.ofMinutes(10));
    a.overrides().set("api", "partner", KeyOverride.Kind.EXEMPT, null, Duration.ofMinutes(20));
    b.policies().refresh();

    // Then both nodes refuse the one and let the other through, uncharged
    assertThat(admitted(onA, "abuser", 3)).isZero();
    assertThat(admitted(onB, "abuser", 3)).isZero();
    assertThat(admitted(onA, "partner", 30)).isEqualTo(30);
    assertThat(admitted(onB, "partner", 30)).isEqualTo(30);

    // And a node that starts later applies them at once
    PolicyStore onLate = node().store().bind(API);
    assertThat(admitted(onLate, "abuser", 3)).isZero();

    // And the block ends on time on every node, refreshed or not
    clock.advance(Duration.ofMinutes(10).minusMillis(1));
    b.policies().refresh();
    assertThat(admitted(onB, "abuser", 1)).isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(admitted(onA, "abuser", 20)).isEqualTo(10);
    assertThat(admitted(onB, "abuser", 1)).as("the 10 of the shared limit are used").isZero();
    b.policies().refresh();
    assertThat(b.overrides().of("api")).containsOnlyKeys("partner");
    assertThat(stores.get(0).view(LiveBoard.class).orElseThrow().readOverrides().get("api"))
        .containsOnlyKeys("partner");
  }

  @Test
  void aKeysOwnLimitsAndARemovalReachEveryNode() {
    LiveLimits a = node();
    LiveLimits b = node();
    PolicyStore onA = a.store().bind(API);
    PolicyStore onB = b.store().bind(API);

    a.overrides().set("api", "big", KeyOverride.Kind.LIMITS, "25/1h", null);
    b.policies().refresh();
    assertThat(admitted(onA, "big", 15)).isEqualTo(15);
    assertThat(admitted(onB, "big", 15)).as("25 shared by both nodes").isEqualTo(10);

    assertThat(b.overrides().remove("api", "big")).isTrue();
    a.policies().refresh();
    assertThat(a.overrides().of("api")).isEmpty();
    assertThat(admitted(onA, "big", 20)).as("its state was kept under the policy's 10").isZero();
  }

  /**
   * A node whose store reaches it through a proxy typed as {@link RateLimitStore} alone, as the
   * {@code @Limited} runtime's store bean does, shares its changes and follows the others' as a
   * node holding the store itself does.
   */
  @Test
  void aNodeWhoseStoreIsAProxyStillSharesItsChanges() {
    // Given a node over the store itself, and one over a proxy of its own store
    LiveLimits a = node();
    LiveLimits proxied = new LiveLimits(clientProxy(store()), clock);
    PolicyStore onA = a.store().bind(API);
    PolicyStore onProxied = proxied.store().bind(API);
    assertThat(proxied.policies().shared()).isTrue();

    // When the proxied node lowers the limit and blocks a key
    proxied.policies().change("api", "4/1h");
    proxied.overrides().set("api", "abuser", KeyOverride.Kind.BLOCK, null, null);

    // Then the other node follows both at its next refresh
    a.policies().refresh();
    assertThat(a.policies().version("api").orElseThrow().number()).isEqualTo(1);
    assertThat(admitted(onA, 10)).isEqualTo(4);
    assertThat(admitted(onA, "abuser", 1)).isZero();

    // And a change of the other node reaches the proxied one
    a.policies().change("api", "6/1h");
    proxied.policies().refresh();
    assertThat(proxied.policies().version("api").orElseThrow().number()).isEqualTo(2);
    assertThat(admitted(onProxied, 10)).as("4 of the 6 used on node a").isEqualTo(2);
  }
}
