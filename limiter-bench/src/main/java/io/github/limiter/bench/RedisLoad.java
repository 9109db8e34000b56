package io.github.limiter.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * A closed-loop load driver against one Redis server on 127.0.0.1: N threads, each calling one
 * subject's decision back to back for a fixed time, recording every call's latency in an
 * HdrHistogram. JMH does not fit here: the interesting numbers are the percentiles under
 * concurrency, and one run covers every thread count against the same server.
 *
 * <p>Usage: {@code RedisLoad --port P --subject limiter[,limiter-direct,...] [--threads 1,8,32]
 * [--keys 1,10000] [--warmup 1] [--seconds 3] [--rounds 1] [--fresh false]}. Prints one JSON line
 * per run: per key count, thread count and round, each subject in turn, so that subjects listed
 * together alternate. {@code --fresh true} runs each on keys never used, without warm-up, and
 * reports the most that may pass ({@code limit}) and the admissions beyond it ({@code
 * overAdmitted}); the driver then exits with status 3 if a Limiter subject over-admitted. Each run
 * is bounded in time and in calls, and only ever talks to 127.0.0.1.
 */
public final class RedisLoad {

  /** One peer's decision for one key. */
  interface Subject extends AutoCloseable {
    int ADMITTED = 1;
    int REJECTED = 0;

    /** The store did not decide (Limiter's fail-open during an error): counted, never hidden. */
    int UNVERIFIED = -1;

    int decide(String key);

    /** Called once per key before the clock starts, so that set-up is not measured. */
    default void prepare(String key) {}

    @Override
    void close();
  }

  /** Creates a subject connected to the server, sized for {@code threads} concurrent callers. */
  interface SubjectFactory {
    Subject create(String host, int port, int threads);
  }

  /** A cap on calls per thread per run, so that a run is bounded even if the clock misbehaves. */
  private static final long MAX_CALLS_PER_THREAD = 50_000_000L;

  static final Map<String, SubjectFactory> SUBJECTS = new LinkedHashMap<>();

  static {
    SUBJECTS.put("bucket4j", Bucket4jRedis::plain);
    SUBJECTS.put("bucket4j-batching", Bucket4jRedis::batching);
    SUBJECTS.put("bucket4j-delaying", Bucket4jRedis::delaying);
    SUBJECTS.put("limiter", (host, port, threads) -> new LimiterRedis(host, port, threads));
    for (String mode : List.of("auto", "pipelined", "direct")) {
      SUBJECTS.put(
          "limiter-" + mode, (host, port, threads) -> new LimiterRedis(host, port, threads, mode));
    }
  }

  private RedisLoad() {}

  /** What one run measured. */
  record Result(
      String subject,
      int threads,
      int keys,
      long calls,
      long admitted,
      long unverified,
      double seconds,
      double cpuSeconds,
      long limit,
      Histogram latency,
      Map<String, RedisAdmin.CommandStats> server,
      double serverCpuSeconds) {
    /** On fresh keys, the admissions beyond the most the limit lets through; else 0. */
    long overAdmitted() {
      return limit > 0 ? Math.max(0, admitted - limit) : 0;
    }

    double callsPerSecond() {
      return calls / seconds;
    }

    /**
     * Redis CPU per decision by {@code INFO commandstats}, in µs: the time inside the commands the
     * client sent. A script's time includes the commands it calls, which commandstats counts again
     * under their own names; the subjects' scripts call each command at most once (Limiter: {@code
     * TIME}, {@code GET}, {@code SET}; Bucket4j's compare-and-swap: {@code GET}, {@code PSETEX}),
     * so a command's calls beyond the scripts' count are the client's own (Bucket4j's read, {@code
     * GET}), at that command's mean time.
     */
    double commandUsPerCall() {
      long scripts = 0;
      double usec = 0;
      for (Map.Entry<String, RedisAdmin.CommandStats> e : server.entrySet()) {
        if (e.getKey().startsWith("eval")) {
          scripts += e.getValue().calls();
          usec += e.getValue().usec();
        }
      }
      for (Map.Entry<String, RedisAdmin.CommandStats> e : server.entrySet()) {
        RedisAdmin.CommandStats c = e.getValue();
        if (!e.getKey().startsWith("eval") && !accounting(e.getKey()) && c.calls() > scripts) {
          usec += (double) c.usec() * (c.calls() - scripts) / c.calls();
        }
      }
      return usec / Math.max(1, calls);
    }

    /** The accounting's own commands, left out. */
    private static boolean accounting(String command) {
      return command.startsWith("config") || command.equals("info");
    }

    /** One JSON line; {@code round} counts from 1. */
    String toJson(int round) {
      StringBuilder commands = new StringBuilder();
      long usec = 0;
      for (Map.Entry<String, RedisAdmin.CommandStats> e : server.entrySet()) {
        if (accounting(e.getKey())) {
          continue;
        }
        commands
            .append(commands.length() == 0 ? "" : ",")
            .append(
                String.format(
                    Locale.ROOT, "\"%s\":%.3f", e.getKey(), (double) e.getValue().calls() / calls));
        if (e.getKey().startsWith("eval")) {
          usec += e.getValue().usec(); // a script's time includes the commands it calls
        }
      }
      return String.format(
          Locale.ROOT,
          "{\"subject\":\"%s\",\"round\":%d,\"threads\":%d,\"keys\":%d,\"calls\":%d,\"admitted\":%d,\"unverified\":%d,"
              + "\"seconds\":%.3f,\"cpuUsPerCall\":%.3f,\"rate\":%d,\"limit\":%d,\"overAdmitted\":%d,"
              + "\"opsPerSec\":%.1f,\"p50us\":%.1f,\"p99us\":%.1f,\"p999us\":%.1f,\"maxus\":%.1f,"
              + "\"scriptUsPerCall\":%.2f,\"commandUsPerCall\":%.2f,\"redisCpuUsPerCall\":%.2f,"
              + "\"serverBusy\":%.3f,\"commandsPerCall\":{%s}}",
          subject,
          round,
          threads,
          keys,
          calls,
          admitted,
          unverified,
          seconds,
          cpuSeconds * 1e6 / Math.max(1, calls),
          RedisPolicies.RATE,
          limit,
          overAdmitted(),
          callsPerSecond(),
          latency.getValueAtPercentile(50) / 1000.0,
          latency.getValueAtPercentile(99) / 1000.0,
          latency.getValueAtPercentile(99.9) / 1000.0,
          latency.getMaxValue() / 1000.0,
          (double) usec / calls,
          commandUsPerCall(),
          serverCpuSeconds * 1e6 / Math.max(1, calls),
          serverCpuSeconds / seconds,
          commands);
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    int port = Integer.parseInt(require(options, "port"));
    String[] subjectNames = require(options, "subject").split(",");
    for (String subjectName : subjectNames) {
      if (!SUBJECTS.containsKey(subjectName)) {
        throw new IllegalArgumentException(
            "--subject: expected some of " + SUBJECTS.keySet() + ", was '" + subjectName + "'");
      }
    }
    int[] threadCounts = ints(options.getOrDefault("threads", "1,8,32"), "threads");
    int[] keyCounts = ints(options.getOrDefault("keys", "1,10000"), "keys");
    double warmup = Double.parseDouble(options.getOrDefault("warmup", "1"));
    double seconds = Double.parseDouble(options.getOrDefault("seconds", "3"));
    int rounds = ints(options.getOrDefault("rounds", "1"), "rounds")[0];
    boolean fresh = Boolean.parseBoolean(options.getOrDefault("fresh", "false"));
    String host = "127.0.0.1";

    // Several subjects alternate run by run, round after round: on a noisy machine their ratio
    // then compares runs that saw the same noise. Each round starts one subject further on, so
    // that no subject always runs first (on a server just used by another) or last.
    int run = 0;
    long overAdmitted = 0;
    for (int keys : keyCounts) {
      for (int threads : threadCounts) {
        for (int round = 0; round < rounds; round++) {
          for (int s = 0; s < subjectNames.length; s++) {
            String subjectName = subjectNames[(round + s) % subjectNames.length];
            String[] names = fresh ? freshKeys(keys, ++run) : keys(keys);
            try (Subject subject = SUBJECTS.get(subjectName).create(host, port, threads)) {
              for (String name : names) {
                subject.prepare(name);
              }
              if (!fresh) {
                run(subject, subjectName, names, threads, warmup, null, false);
              }
              Result result;
              try (RedisAdmin admin = new RedisAdmin(port)) {
                result = run(subject, subjectName, names, threads, seconds, admin, fresh);
              }
              System.out.println(result.toJson(round + 1));
              if (subjectName.startsWith("limiter")) {
                // Bucket4j's delaying() over-admits by design, up to what is not yet synchronised.
                overAdmitted += result.overAdmitted();
              }
            }
          }
        }
      }
    }
    if (overAdmitted > 0) {
      System.err.println("over-admission: " + overAdmitted + " admissions beyond the limit");
      System.exit(3);
    }
  }

  /**
   * Keys never used before, for the over-admission runs: each starts with a full bucket, so that at
   * most {@code RATE + RATE × seconds} calls may pass.
   */
  static String[] freshKeys(int count, int run) {
    String[] names = keys(count);
    for (int i = 0; i < names.length; i++) {
      names[i] = "run" + run + "-" + names[i];
    }
    return names;
  }

  /** One key is {@code hot}; more are {@code user-0 .. user-(n-1)}, like the local benchmarks. */
  static String[] keys(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("keys must be at least 1, was " + count);
    }
    if (count == 1) {
      return new String[] {"hot"};
    }
    String[] names = new String[count];
    for (int i = 0; i < count; i++) {
      names[i] = "user-" + i;
    }
    return names;
  }

  /** One timed run; with {@code admin}, the server's command statistics of exactly this run. */
  static Result run(
      Subject subject,
      String name,
      String[] keys,
      int threads,
      double seconds,
      RedisAdmin admin,
      boolean fresh)
      throws InterruptedException, IOException {
    long durationNanos = (long) (seconds * 1e9);
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    Histogram[] latencies = new Histogram[threads];
    long[] calls = new long[threads];
    long[] admitted = new long[threads];
    long[] unverified = new long[threads];
    long[] begin = new long[1];
    for (int t = 0; t < threads; t++) {
      int me = t;
      latencies[t] = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
      Thread worker =
          new Thread(
              () -> {
                long x = 0x9E3779B97F4A7C15L * (me + 1);
                Histogram latency = latencies[me];
                try {
                  start.await();
                  long deadline = begin[0] + durationNanos;
                  long n = 0;
                  long yes = 0;
                  long unknown = 0;
                  for (long now = System.nanoTime();
                      now - deadline < 0 && n < MAX_CALLS_PER_THREAD;
                      n++) {
                    x ^= x << 13;
                    x ^= x >>> 7;
                    x ^= x << 17;
                    String key = keys[(int) (((x >>> 32) * keys.length) >>> 32)];
                    int outcome = subject.decide(key);
                    if (outcome == Subject.ADMITTED) {
                      yes++;
                    } else if (outcome == Subject.UNVERIFIED) {
                      unknown++;
                    }
                    long end = System.nanoTime();
                    latency.recordValue(Math.min(end - now, latency.getHighestTrackableValue()));
                    now = end;
                  }
                  calls[me] = n;
                  admitted[me] = yes;
                  unverified[me] = unknown;
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "redis-load-" + t);
      workers.add(worker);
      worker.start();
    }
    if (admin != null) {
      admin.resetStats();
    }
    double serverCpuBefore = admin != null ? admin.cpuSeconds() : 0;
    long cpuBefore = processCpuNanos();
    begin[0] = System.nanoTime();
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    double elapsed = (System.nanoTime() - begin[0]) / 1e9;
    double cpu = (processCpuNanos() - cpuBefore) / 1e9;
    double serverCpu = admin != null ? admin.cpuSeconds() - serverCpuBefore : 0;
    Map<String, RedisAdmin.CommandStats> server = admin != null ? admin.commandStats() : Map.of();
    if (failure.get() != null) {
      throw new IllegalStateException(name + " failed at " + threads + " threads", failure.get());
    }
    Histogram total = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    long sum = 0;
    long yes = 0;
    long unknown = 0;
    for (int t = 0; t < threads; t++) {
      total.add(latencies[t]);
      sum += calls[t];
      yes += admitted[t];
      unknown += unverified[t];
    }
    // On fresh keys, a full bucket plus what refills while the run lasts: the most that may pass.
    long limit =
        fresh ? keys.length * (RedisPolicies.RATE + (long) (RedisPolicies.RATE * elapsed)) : 0;
    return new Result(
        name,
        threads,
        keys.length,
        sum,
        yes,
        unknown,
        elapsed,
        cpu,
        limit,
        total,
        server,
        serverCpu);
  }

  /** CPU time of the whole JVM (every thread, the GC's included). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException(
            "expected --name value pairs, was '" + String.join(" ", args) + "'");
      }
      options.put(args[i].substring(2), args[++i]);
    }
    return options;
  }

  private static String require(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return value;
  }

  private static int[] ints(String text, String name) {
    try {
      String[] parts = text.split(",");
      int[] values = new int[parts.length];
      for (int i = 0; i < parts.length; i++) {
        values[i] = Integer.parseInt(parts[i].trim());
        if (values[i] < 1) {
          throw new NumberFormatException();
        }
      }
      return values;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--" + name + ": expected positive integers such as 1,8,32, was '" + text + "'", e);
    }
  }
}
