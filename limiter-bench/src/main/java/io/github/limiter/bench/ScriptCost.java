package io.github.limiter.bench;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.bench.RedisAdmin.CommandStats;
import io.github.limiter.redis.RedisStore;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import redis.clients.jedis.Jedis;

/**
 * The Redis CPU that one decision's script costs, per algorithm: the server's own {@code INFO
 * commandstats} (usec per EVALSHA) over a fixed number of decisions from one thread, so that the
 * number does not depend on the client or the machine's load beyond Redis's own core.
 *
 * <p>Usage: {@code ScriptCost <port> [calls] [budget-usec]}. Two mixes per algorithm: many keys at
 * 100 a second (mostly admitted), and one hot key (mostly rejected). Prints one line per algorithm
 * and mix. Reference scripts are measured the same way: the least any decision can cost is a script
 * that reads the clock, reads the key and writes it back with a TTL (the floor), measured again
 * right after each mix, so each algorithm is also given as a multiple of it. Ends with a verdict
 * against the budget (10 µs by default); exits 1 if a script is over it.
 */
final class ScriptCost {

  private static final Limit LIMIT = Limit.of(100, Duration.ofSeconds(1));

  /** Scripts that do less than any decision can, for scale: name and source. */
  private static final String[][] REFERENCES = {
    {"return 1", "return 1"},
    {"TIME+MGET", "redis.call('TIME') return redis.call('MGET', KEYS[1])"},
    {
      "TIME+GET+SET PX",
      "local t = redis.call('TIME') redis.call('GET', KEYS[1])"
          + " redis.call('SET', KEYS[1], t[2], 'PX', 60000) return 1"
    },
  };

  private ScriptCost() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    double budget = args.length > 2 ? Double.parseDouble(args[2]) : 10.0;
    List<Policy> policies =
        List.of(
            Policy.tokenBucket("tb", LIMIT),
            Policy.leakyBucket("lb", LIMIT),
            Policy.fixedWindow("fw", LIMIT),
            Policy.slidingWindowCounter("swc", LIMIT),
            Policy.slidingWindowLog("swl", LIMIT));
    boolean over = false;
    try (RedisStore store =
            RedisStore.builder()
                .node("127.0.0.1", port)
                .decisionTimeout(Duration.ofSeconds(2))
                .socketTimeout(Duration.ofSeconds(2))
                .build();
        RedisAdmin admin = new RedisAdmin(port);
        Jedis jedis = new Jedis("127.0.0.1", port)) {
      for (String[] reference : REFERENCES) {
        System.out.printf(
            Locale.ROOT,
            "reference %-15s 1000 key(s)  %6.2f usec/call%n",
            reference[0],
            reference(jedis, admin, reference[1], 1_000, calls));
      }
      String floor = REFERENCES[REFERENCES.length - 1][1];
      for (Policy policy : policies) {
        for (int keys : new int[] {1_000, 1}) {
          run(store, policy, keys, calls / 10); // warm-up: scripts loaded, keys created
          admin.resetStats();
          int admitted = run(store, policy, keys, calls);
          CommandStats evalsha = admin.commandStats().get("evalsha");
          double perCall = (double) evalsha.usec() / evalsha.calls();
          // The floor again, right after and on as many keys: the machine's load changes the
          // usec of both alike, so the ratio holds where the absolute figure does not.
          double least = reference(jedis, admin, floor, keys, calls);
          over |= perCall > budget;
          System.out.printf(
              Locale.ROOT,
              "%-24s %5d key(s)  %6.2f usec/decision  %.2fx the floor (%.2f)  (%d%% admitted)%s%n",
              policy.algorithm().configName(),
              keys,
              perCall,
              perCall / least,
              least,
              100L * admitted / calls,
              perCall > budget ? "  OVER " + budget : "");
        }
      }
    }
    System.out.println(
        over
            ? "verdict: some script costs more than " + budget + " usec per decision"
            : "verdict: every script costs at most " + budget + " usec per decision");
    System.exit(over ? 1 : 0);
  }

  /** Usec per call of {@code script} over {@code keys} keys, as the server accounts it. */
  private static double reference(Jedis jedis, RedisAdmin admin, String script, int keys, int calls)
      throws IOException {
    String sha = jedis.scriptLoad(script);
    for (int i = 0; i < calls / 10; i++) {
      jedis.evalsha(sha, 1, "ref" + (i % keys));
    }
    admin.resetStats();
    for (int i = 0; i < calls; i++) {
      jedis.evalsha(sha, 1, "ref" + (i % keys));
    }
    CommandStats evalsha = admin.commandStats().get("evalsha");
    return (double) evalsha.usec() / evalsha.calls();
  }

  private static int run(RedisStore store, Policy policy, int keys, int calls) {
    int admitted = 0;
    for (int i = 0; i < calls; i++) {
      Decision decision = store.decide(policy, "k" + (i % keys), 1);
      if (!decision.isVerified()) {
        throw new IllegalStateException("the store did not reach Redis: " + decision);
      }
      admitted += decision.isAllowed() ? 1 : 0;
    }
    return admitted;
  }
}
