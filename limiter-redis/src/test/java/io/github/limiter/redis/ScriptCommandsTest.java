package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the scripts run inside Redis, counted by {@code INFO commandstats}: a rejection reads and
 * writes only what it must. On a server of its own, since the counts are server-wide.
 */
class ScriptCommandsTest {

  /** The commands a script may read with; none of them changes a key. */
  private static final Set<String> READS =
      Set.of("time", "mget", "get", "llen", "lindex", "lrange", "hgetall");

  private static RedisServer server;
  private static RedisStore store;

  @BeforeAll
  static void start() {
    server = RedisServer.start("script-commands");
    store =
        RedisStore.builder()
            .url(server.url())
            .decisionTimeout(Duration.ofSeconds(2))
            .socketTimeout(Duration.ofSeconds(2))
            .build();
  }

  @AfterAll
  static void stop() {
    store.close();
    server.close();
  }

  /**
   * Calls per command that scripts ran while {@code action} ran; the script calls themselves left
   * out.
   */
  private static Map<String, Long> commandsDuring(Runnable action) {
    server.call("CONFIG", "RESETSTAT");
    action.run();
    Map<String, Long> calls = new TreeMap<>();
    server
        .commandStats()
        .forEach(
            (command, stats) -> {
              if (!command.matches("evalsha|eval|config.*|info")) {
                calls.put(command, stats.calls());
              }
            });
    return calls;
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"TOKEN_BUCKET", "LEAKY_BUCKET"})
  void aRejectedFirstRequestWritesItsKeysWithoutAskingWhetherTheyExist(Algorithm algorithm) {
    // Given two limits that start below full, the first of which rejects a first request
    boolean token = algorithm == Algorithm.TOKEN_BUCKET;
    Policy policy =
        new Policy(
            "commands-first-" + algorithm.configName(),
            algorithm,
            List.of(
                Limit.bucket(2, Duration.ofHours(1), 4).withInitial(token ? 0 : 4),
                Limit.bucket(10, Duration.ofHours(1), 10).withInitial(token ? 5 : 3)),
            FailureMode.FAIL_CLOSED);
    store.decide(policy, "warm-up", 1);
    // When a new key's first request is rejected (two permits: a full leaky bucket admits one a
    // microsecond later)
    Map<String, Long> first =
        commandsDuring(
            () ->
                assertThat(store.decide(policy, "new", 2).outcome())
                    .isEqualTo(Decision.Outcome.LIMITED));
    // Then the script read both keys with one MGET and wrote each once, with no command of its own
    // to learn that they were missing
    assertThat(first).isEqualTo(Map.of("time", 1L, "mget", 1L, "set", 2L));
    // And a second rejection of the key, which now exists, only reads
    Map<String, Long> again =
        commandsDuring(
            () ->
                assertThat(store.decide(policy, "new", 2).outcome())
                    .isEqualTo(Decision.Outcome.LIMITED));
    assertThat(again).isEqualTo(Map.of("time", 1L, "mget", 1L));
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void aRejectionOfAFreshKeyAndARefundOfAMissingOneOnlyRead(Algorithm algorithm) {
    List<Limit> limits =
        algorithm.isBucket()
            ? List.of(
                Limit.bucket(1, Duration.ofHours(1), 3), Limit.bucket(1, Duration.ofHours(1), 5))
            : algorithm == Algorithm.CONCURRENCY // one limit only
                ? List.of(Limit.of(3, Duration.ofHours(1)))
                : List.of(Limit.of(3, Duration.ofHours(1)), Limit.of(5, Duration.ofHours(1)));
    Policy policy =
        new Policy(
            "commands-fresh-" + algorithm.configName(), algorithm, limits, FailureMode.FAIL_CLOSED);
    store.decide(policy, "warm-up", 1);
    // When a new key asks for more than it can ever have, and a key never seen gets a refund
    Map<String, Long> calls =
        commandsDuring(
            () -> {
              assertThat(store.decide(policy, "new", 4).outcome())
                  .isEqualTo(Decision.Outcome.EXCEEDS_CAPACITY);
              store.refund(policy, "never-seen", 1);
            });
    // Then nothing was written: the keys' states are fresh, and stay missing
    assertThat(calls).isNotEmpty();
    assertThat(calls.keySet()).as("commands run by %s", algorithm).isSubsetOf(READS);
    assertThat(
            server.call(
                "EXISTS",
                store.redisKey(policy, "new", 0),
                store.redisKey(policy, "never-seen", 0)))
        .isEqualTo(0L);
  }

  /** 5 an hour under {@code algorithm} (a bucket of 5, or a window of 5), then {@code quota}. */
  private static Policy rateAndQuota(String name, Algorithm algorithm, Limit quota) {
    Limit rate =
        algorithm.isBucket()
            ? Limit.bucket(5, Duration.ofHours(1), 5)
            : Limit.of(5, Duration.ofHours(1));
    return new Policy(
        name + algorithm.configName(), algorithm, List.of(rate, quota), FailureMode.FAIL_CLOSED);
  }

  /**
   * A rate's key gone (expired sooner than its period's quota) while the quota's key lives: the
   * next decision reads the rate as fresh and the quota as counted. The algorithms fetch only their
   * own keys, never the quotas' after them.
   */
  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"CONCURRENCY"},
      mode = EnumSource.Mode.EXCLUDE)
  void aRateKeyGoneBesideALiveQuotaKeyReadsAsFresh(Algorithm algorithm) {
    Policy policy = rateAndQuota("gone-", algorithm, Limit.quota(10, ChronoUnit.DAYS));
    assertThat(store.decide(policy, "k", 1).isAllowed()).isTrue();
    List<?> rateKeys =
        (List<?>)
            server.call("KEYS", "*" + policy.name() + "*" + CompiledPolicy.code(algorithm) + "0");
    assertThat(rateKeys).hasSize(1);
    server.call("DEL", rateKeys.get(0).toString());

    Decision next = store.decide(policy, "k", 1);

    assertThat(next.isVerified()).as("decided in Redis, not by the failure mode").isTrue();
    assertThat(next.isAllowed()).isTrue();
    assertThat(next.remaining()).as("the rate fresh (4 left), the quota at 8").isEqualTo(4);
  }

  /**
   * A read of a key under a rate and a calendar quota, on the server's clock: the quota's key is
   * read beside the rate's, the spent quota binds, and nothing is written.
   */
  @ParameterizedTest
  @EnumSource(value = Algorithm.class, names = "CONCURRENCY", mode = EnumSource.Mode.EXCLUDE)
  void aPeekBesideAQuotaOnlyReads(Algorithm algorithm) {
    Limit quota = Limit.quota(2, ChronoUnit.DAYS);
    Policy policy = rateAndQuota("peek-quota-", algorithm, quota);
    assertThat(store.decide(policy, "k", 2).isAllowed()).isTrue();

    Map<String, Long> calls =
        commandsDuring(
            () -> {
              Decision spent = store.peek(policy, "k");
              assertThat(spent.limit())
                  .as("3 left of the rate, none of the quota")
                  .isEqualTo(quota);
              assertThat(spent.remaining()).isZero();
              assertThat(spent.resetAfterNanos()).isPositive();
              assertThat(store.peek(policy, "unseen").remaining()).isEqualTo(2);
            });

    assertThat(calls).containsKey("get");
    assertThat(calls.keySet()).as("commands run by %s", algorithm).isSubsetOf(READS);
    assertThat(store.decide(policy, "k", 1).limit()).as("still spent").isEqualTo(quota);
  }
}
