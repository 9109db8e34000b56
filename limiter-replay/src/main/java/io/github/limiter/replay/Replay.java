package io.github.limiter.replay;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limiter;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replays a recorded trace through an algorithm and prints what it decides: for tuning limits on
 * real traffic, and as proof against the article's tables.
 */
public final class Replay {

  /**
   * The algorithms a trace can be replayed through: all but concurrency, whose permits come back
   * when requests end, which a trace does not record.
   */
  static final List<Algorithm> RATES =
      Arrays.stream(Algorithm.values()).filter(a -> a != Algorithm.CONCURRENCY).toList();

  static final String USAGE =
      """
      usage: java -jar limiter-replay.jar --algorithm ALG [params] [--decisions] [TRACE]
             java -jar limiter-replay.jar compare --limit N --window S --rate R --capacity B [options] [TRACE]
             java -jar limiter-replay.jar sweep --algorithm ALG GRID [--target-rejection P%] [options] [TRACE]
        ALG: fixed-window | sliding-window-counter | sliding-window-log | token-bucket | leaky-bucket
        window algorithms: --limit N --window SECONDS
        bucket algorithms: --rate R --capacity B [--initial X]
             token bucket: X = initial tokens, default B; leaky bucket: X = initial level, default 0
        calendar quota, beside either: --quota N/day|week|month|year [--time-zone Z] [--anchor-day D]
             periods from local midnight in zone Z (UTC), months from day D (1); all-or-nothing
        TRACE: a file in the --format below, stdin when absent; by default one timestamp in
               seconds (decimal) a line, and an optional second field, the key: limits apply per key.
      compare: all five algorithms on the trace, one table row each (windows take --limit/--window,
               buckets --rate/--capacity)
      sweep:   one algorithm over a grid; each of its two parameters is a value, a list 'a,b,c', or a
               range 'A..B' of --steps values (default 10) evenly spaced from A to B, whole numbers
               rounded for --limit and --capacity. Recommends the tightest setting (lowest rate, then
               smallest burst) that rejects at most --target-rejection (default 0.1%) of the requests
               of the behaving keys: those whose own average rate, requests over their active span
               (at least 1 s), is at most the limit's rate.
      options:
        --decisions              one line per request: '<timestamp> ALLOW|REJECT' (leaky: + departure)
        --format FORMAT          the trace's format (seconds); the access logs are keyed by client, the
                                 line's first field, and their time is its first [bracketed] field:
          seconds                '<seconds> [key]' a line, seconds as a decimal number
          clf, combined          Common/Combined Log Format: [10/Oct/2000:13:55:36 -0700]; a fraction
                                 of the second is read too: [10/Oct/2000:13:55:36.250 -0700]
          nginx-msec             [1796032800.125]: seconds since the epoch (nginx $msec)
          apache-msec            [1796032800125]: milliseconds since the epoch (Apache %{msec}t)
          apache-usec            [1796032800125000]: microseconds since the epoch (Apache %{usec}t)
          iso                    [2026-12-01T08:00:00.125Z]: ISO-8601 with an offset (Z, +01:00, +0100)
          json                   one JSON object a line: --time-field NAME holds the time, a number of
                                 --time-unit s|ms|us|ns (default s) since the epoch, or an ISO-8601
                                 string with an offset; --key-field NAME holds the key (none: one key)
        --spread                 place each second's requests evenly inside it, for a log of whole seconds
        --strict                 an unparseable or out-of-order access log line is an error, not skipped
        --report FILE.html       compare, sweep: also write a self-contained HTML report with charts
        --top-keys N             compare, sweep: how many keys to list, of the behaving keys and of the
                                 others, with the most rejections first (default 10)
        --store memory|redis     where the state lives (memory); redis runs each decision as one
                                 script call, with the trace's time passed to the script
        --redis-url URL          redis://[user:password@]host:port[/db] for --store redis
        --arithmetic exact|double
                                 exact (default): Limiter's integer nanoseconds; double: the article's
                                 reference arithmetic in IEEE-754 doubles, to compare with its tables
      """;

  private Replay() {}

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  /** Runs the tool; returns the exit status. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    try {
      Options options = Options.parse(args);
      Trace trace;
      try (BufferedReader reader =
          options.trace == null
              ? new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
              : Files.newBufferedReader(options.trace, StandardCharsets.UTF_8)) {
        trace = Trace.read(reader, options.format.fresh(), options.strict, options.spread);
      } catch (NoSuchFileException e) {
        throw new ReplayException("TRACE: no such file '" + options.trace + "'");
      }
      trace.notes().forEach(note -> err.println("limiter-replay: " + note));
      switch (options.command) {
        case "compare" -> Compare.run(options, trace, out);
        case "sweep" -> Sweep.run(options, trace, out);
        default -> replay(options, trace, out);
      }
      return 0;
    } catch (ReplayException e) {
      err.println("limiter-replay: " + e.getMessage());
      err.print(USAGE);
      return 2;
    } catch (IOException | UncheckedIOException e) {
      err.println("limiter-replay: cannot read the trace: " + e.getMessage());
      return 1;
    }
  }

  private static void replay(Options options, Trace trace, PrintStream out) {
    Policy policy = options.policy();
    InMemoryReplay.Run run =
        options.store.equals("redis") ? decide(options, policy, trace) : options.run(trace);
    boolean[] allowed = run.allowed();
    long[] departures = run.departures();
    Map<String, long[]> perKey = new TreeMap<>();
    long admitted = 0;
    for (int i = 0; i < allowed.length; i++) {
      String text = trace.texts()[i];
      long[] counts = perKey.computeIfAbsent(trace.keyNames()[trace.keys()[i]], k -> new long[2]);
      counts[allowed[i] ? 0 : 1]++;
      if (allowed[i]) {
        admitted++;
      }
      if (options.decisions) {
        if (!allowed[i]) {
          out.println(text + " REJECT");
        } else if (policy.algorithm() == Algorithm.LEAKY_BUCKET) {
          out.println(text + " ALLOW " + seconds(departures[i]));
        } else {
          out.println(text + " ALLOW");
        }
      }
    }
    if (!options.decisions) {
      out.println(
          "algorithm="
              + policy.algorithm()
              + " "
              + options.describe()
              + (options.doubleArithmetic ? " arithmetic=double" : ""));
      if (perKey.size() > 1) {
        perKey.forEach(
            (key, counts) ->
                out.println(
                    "key="
                        + key
                        + " requests="
                        + (counts[0] + counts[1])
                        + " allowed="
                        + counts[0]
                        + " rejected="
                        + counts[1]));
      }
      if (policy.algorithm() == Algorithm.LEAKY_BUCKET && admitted > 0) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < allowed.length; i++) {
          if (allowed[i]) {
            first = Math.min(first, departures[i]);
            last = Math.max(last, departures[i]);
          }
        }
        out.println("departures " + trace.span(first, last));
      }
    }
    out.println(
        "requests="
            + allowed.length
            + " allowed="
            + admitted
            + " rejected="
            + (allowed.length - admitted));
  }

  /** Drives a Redis store with the trace's own time, which starts the store at 0. */
  private static InMemoryReplay.Run decide(Options options, Policy policy, Trace trace) {
    boolean[] allowed = new boolean[trace.size()];
    long[] departures = new long[allowed.length];
    long[] now = {0};
    NanoClock traceClock = () -> now[0];
    try (RateLimitStore store = options.redisStore(traceClock)) {
      Limiter limiter = Limiter.of(store);
      for (int i = 0; i < allowed.length; i++) {
        now[0] = trace.nanos()[i];
        Decision decision = limiter.decide(policy, trace.keyNames()[trace.keys()[i]], 1);
        if (decision.outcome() == Decision.Outcome.UNAVAILABLE) {
          throw new ReplayException(
              "the store cannot decide: " + store.health().lastError().orElse("unavailable"));
        }
        allowed[i] = decision.isAllowed();
        departures[i] = now[0] + decision.delayNanos();
      }
    }
    return new InMemoryReplay.Run(allowed, departures);
  }

  static String seconds(long nanos) {
    return BigDecimal.valueOf(nanos)
        .movePointLeft(9)
        .setScale(3, RoundingMode.HALF_UP)
        .toPlainString();
  }
}
