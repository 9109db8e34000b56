package io.github.limiter.bench;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.redis.RedisStore;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lease mode against direct mode (one EVALSHA per decision), in the same run on the same server:
 * {@code --nodes} stores in this JVM, standing for application nodes, each with {@code --threads}
 * threads deciding back to back on one hot key, for {@code --seconds}: a token bucket of {@link
 * RedisPolicies#RATE} per second, burst as much (which a lease-mode run can reach: it then rejects
 * some), or with {@code --algorithm fixed-window} a window that no run fills.
 *
 * <p>Per mode it prints one JSON line: decisions per second, admitted, unverified (fail-open), the
 * script calls per decision from {@code INFO commandstats} (every {@code eval*}, after {@code
 * CONFIG RESETSTAT}), and decisions per CPU-second of this JVM. Then one line of ratios, lease over
 * direct. Modes alternate for {@code --rounds} rounds, each after a warm-up of its own.
 *
 * <p>Usage: {@code LeaseLoad --port P [--nodes 4] [--threads 8] [--seconds 10] [--warmup 2]
 * [--rounds 1] [--algorithm token-bucket|fixed-window]}; it only ever talks to 127.0.0.1.
 */
public final class LeaseLoad {

  /** The default: a token bucket of 10^6 per second (the most a bucket has at µs resolution). */
  static final Policy TOKEN_BUCKET =
      Policy.tokenBucket(
          "bench-lease",
          Limit.bucket(RedisPolicies.RATE, Duration.ofSeconds(1), RedisPolicies.RATE));

  /** {@code --algorithm fixed-window}: 10^12 an hour, which no run reaches. */
  static final Policy FIXED_WINDOW =
      Policy.fixedWindow("bench-lease", Limit.of(1_000_000_000_000L, Duration.ofHours(1)));

  private LeaseLoad() {}

  /** One measured run of one mode. */
  record Result(
      String mode,
      int nodes,
      int threads,
      long decisions,
      long admitted,
      long unverified,
      long scriptCalls,
      double seconds,
      double cpuSeconds) {

    double perSecond() {
      return decisions / seconds;
    }

    double perCpuSecond() {
      return decisions / cpuSeconds;
    }

    double callsPerDecision() {
      return (double) scriptCalls / decisions;
    }

    String toJson() {
      return String.format(
          Locale.ROOT,
          "{\"subject\":\"limiter-%s\",\"nodes\":%d,\"threadsPerNode\":%d,\"decisions\":%d,"
              + "\"admitted\":%d,\"unverified\":%d,\"seconds\":%.3f,\"opsPerSec\":%.1f,"
              + "\"scriptCalls\":%d,\"scriptCallsPerDecision\":%.5f,\"opsPerCpuSec\":%.1f}",
          mode,
          nodes,
          threads,
          decisions,
          admitted,
          unverified,
          seconds,
          perSecond(),
          scriptCalls,
          callsPerDecision(),
          perCpuSecond());
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value pairs, was '" + args[i] + "'");
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    int port = Integer.parseInt(options.getOrDefault("port", "0"));
    if (port < 1) {
      throw new IllegalArgumentException("--port is required");
    }
    int nodes = Integer.parseInt(options.getOrDefault("nodes", "4"));
    int threads = Integer.parseInt(options.getOrDefault("threads", "8"));
    double seconds = Double.parseDouble(options.getOrDefault("seconds", "10"));
    double warmup = Double.parseDouble(options.getOrDefault("warmup", "2"));
    int rounds = Integer.parseInt(options.getOrDefault("rounds", "1"));
    String algorithm = options.getOrDefault("algorithm", "token-bucket");
    Policy policy =
        switch (algorithm) {
          case "token-bucket" -> TOKEN_BUCKET;
          case "fixed-window" -> FIXED_WINDOW;
          default ->
              throw new IllegalArgumentException(
                  "--algorithm: expected token-bucket or fixed-window, was '" + algorithm + "'");
        };
    List<Result> direct = new ArrayList<>();
    List<Result> lease = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      for (String mode : List.of("direct", "lease")) {
        Result result = run(policy, mode, port, nodes, threads, warmup, seconds);
        System.out.println(result.toJson());
        (mode.equals("direct") ? direct : lease).add(result);
      }
    }
    double throughput = sum(lease, Result::perSecond) / sum(direct, Result::perSecond);
    double cpu = sum(lease, Result::perCpuSecond) / sum(direct, Result::perCpuSecond);
    double calls =
        lease.stream().mapToLong(Result::scriptCalls).sum()
            / (double) lease.stream().mapToLong(Result::decisions).sum();
    System.out.println(
        String.format(
            Locale.ROOT,
            "{\"summary\":\"lease vs direct\",\"algorithm\":\"%s\",\"nodes\":%d,\"threadsPerNode\":%d,\"seconds\":%.0f,"
                + "\"rounds\":%d,\"throughputRatio\":%.2f,\"perCpuSecondRatio\":%.2f,"
                + "\"leaseScriptCallsPerDecision\":%.5f,\"throughputTarget\":10,"
                + "\"callsTarget\":0.05,\"verdict\":\"%s\"}",
            algorithm,
            nodes,
            threads,
            seconds,
            rounds,
            throughput,
            cpu,
            calls,
            throughput >= 10 && calls <= 0.05 ? "met" : "not met"));
  }

  private static double sum(List<Result> results, java.util.function.ToDoubleFunction<Result> f) {
    return results.stream().mapToDouble(f).sum();
  }

  private static List<RedisStore> stores(
      Policy policy, String mode, int port, int nodes, int threads) {
    List<RedisStore> stores = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      var b =
          RedisStore.builder()
              .node("127.0.0.1", port)
              .keyPrefix("bench-" + mode + ":")
              .poolMaxTotal(threads)
              // Generous, so that a loaded machine shows as throughput, not as fail-open.
              .decisionTimeout(Duration.ofSeconds(2))
              .socketTimeout(Duration.ofSeconds(2));
      if (mode.equals("lease")) {
        b.lease(policy.name());
      }
      stores.add(b.build());
    }
    return stores;
  }

  static Result run(
      Policy policy, String mode, int port, int nodes, int threads, double warmup, double seconds)
      throws Exception {
    List<RedisStore> stores = stores(policy, mode, port, nodes, threads);
    try (RedisAdmin admin = new RedisAdmin(port)) {
      drive(policy, stores, threads, warmup, null);
      return drive(policy, stores, threads, seconds, admin).withMode(mode, nodes, threads);
    } finally {
      stores.forEach(RedisStore::close);
    }
  }

  /** What the threads did in one timed run. */
  private record Counts(
      long decisions,
      long admitted,
      long unverified,
      long scriptCalls,
      double seconds,
      double cpuSeconds) {
    Result withMode(String mode, int nodes, int threads) {
      return new Result(
          mode, nodes, threads, decisions, admitted, unverified, scriptCalls, seconds, cpuSeconds);
    }
  }

  private static Counts drive(
      Policy policy, List<RedisStore> stores, int threadsPerStore, double seconds, RedisAdmin admin)
      throws Exception {
    int threads = stores.size() * threadsPerStore;
    long[] decisions = new long[threads];
    long[] admitted = new long[threads];
    long[] unverified = new long[threads];
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long[] deadline = new long[1];
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int me = t;
      RedisStore store = stores.get(t / threadsPerStore);
      Thread worker =
          new Thread(
              () -> {
                try {
                  start.await();
                  long end = deadline[0];
                  long n = 0;
                  long yes = 0;
                  long unknown = 0;
                  // The clock is read every 64 decisions: a lease decision costs less than a read.
                  while ((n & 63) != 0 || System.nanoTime() - end < 0) {
                    Decision d = store.decide(policy, "hot", 1);
                    n++;
                    if (!d.isVerified()) {
                      unknown++;
                    } else if (d.isAllowed()) {
                      yes++;
                    }
                  }
                  decisions[me] = n;
                  admitted[me] = yes;
                  unverified[me] = unknown;
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "lease-load-" + t);
      workers.add(worker);
      worker.start();
    }
    if (admin != null) {
      admin.resetStats();
    }
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpuBefore = os.getProcessCpuTime();
    long begin = System.nanoTime();
    deadline[0] = begin + (long) (seconds * 1e9);
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    double elapsed = (System.nanoTime() - begin) / 1e9;
    double cpu = (os.getProcessCpuTime() - cpuBefore) / 1e9;
    long scripts = 0;
    if (admin != null) {
      for (Map.Entry<String, RedisAdmin.CommandStats> e : admin.commandStats().entrySet()) {
        if (e.getKey().startsWith("eval")) {
          scripts += e.getValue().calls();
        }
      }
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a load thread failed", failure.get());
    }
    long n = 0;
    long yes = 0;
    long unknown = 0;
    for (int t = 0; t < threads; t++) {
      n += decisions[t];
      yes += admitted[t];
      unknown += unverified[t];
    }
    return new Counts(n, yes, unknown, scripts, elapsed, cpu);
  }
}
