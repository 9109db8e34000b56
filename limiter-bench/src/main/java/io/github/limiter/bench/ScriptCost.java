package io.github.limiter.bench;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.bench.RedisAdmin.CommandStats;
import io.github.limiter.redis.RedisStore;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The Redis CPU that one decision's script costs, per algorithm: the server's own {@code INFO
 * commandstats} (usec per EVALSHA) over a fixed number of decisions from one thread, so that the
 * number does not depend on the client or the machine's load beyond Redis's own core.
 *
 * <p>Usage: {@code ScriptCost <port> [calls] [budget-usec]}. Two mixes per algorithm: many keys at
 * 100 a second (mostly admitted), and one hot key (mostly rejected). Prints one line per algorithm
 * and mix, and a verdict against the budget (10 µs by default); exits 1 if a script is over it.
 */
final class ScriptCost {

  private static final Limit LIMIT = Limit.of(100, Duration.ofSeconds(1));

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
        RedisAdmin admin = new RedisAdmin(port)) {
      for (Policy policy : policies) {
        for (int keys : new int[] {1_000, 1}) {
          run(store, policy, keys, calls / 10); // warm-up: scripts loaded, keys created
          admin.resetStats();
          int admitted = run(store, policy, keys, calls);
          CommandStats evalsha = admin.commandStats().get("evalsha");
          double perCall = (double) evalsha.usec() / evalsha.calls();
          over |= perCall > budget;
          System.out.printf(
              Locale.ROOT,
              "%-24s %5d key(s)  %6.2f usec/decision  (%d calls, %d%% admitted)%s%n",
              policy.algorithm().configName(),
              keys,
              perCall,
              evalsha.calls(),
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
