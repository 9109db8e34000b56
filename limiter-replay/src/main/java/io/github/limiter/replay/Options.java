package io.github.limiter.replay;

import io.github.limiter.Algorithm;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.NanoClock;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.redis.RedisStore;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/** The command line. */
final class Options {
  Algorithm algorithm;
  String limit;
  String window;
  String rate;
  String capacity;
  String initial;

  /** A calendar quota beside the limit, such as 10000/month; null for none. */
  String quota;

  String timeZone;
  String anchorDay;
  boolean decisions;
  boolean doubleArithmetic;
  String store = "memory";
  String redisUrl;
  LogFormat format;
  boolean strict;
  boolean spread;
  Path trace;

  /** "replay" for the one-algorithm command, or "compare" or "sweep". */
  String command = "replay";

  Path report;
  int steps = 10;
  int topKeys = 10;
  double targetRejection = 0.001;

  static Options parse(String[] args) {
    Options o = new Options();
    int first = 0;
    if (args.length > 0 && (args[0].equals("compare") || args[0].equals("sweep"))) {
      o.command = args[0];
      first = 1;
    }
    String sweepOnly = null;
    String tableOnly = null;
    String formatName = "seconds";
    String timeField = null;
    String keyField = null;
    String timeUnit = null;
    for (int i = first; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--algorithm" -> o.algorithm = parseAlgorithm(value(args, ++i, arg));
        case "--limit" -> o.limit = value(args, ++i, arg);
        case "--window" -> o.window = value(args, ++i, arg);
        case "--rate" -> o.rate = value(args, ++i, arg);
        case "--capacity" -> o.capacity = value(args, ++i, arg);
        case "--initial" -> o.initial = value(args, ++i, arg);
        case "--quota" -> o.quota = value(args, ++i, arg);
        case "--time-zone" -> o.timeZone = value(args, ++i, arg);
        case "--anchor-day" -> o.anchorDay = value(args, ++i, arg);
        case "--decisions" -> o.decisions = true;
        case "--format" -> formatName = value(args, ++i, arg);
        case "--time-field" -> timeField = value(args, ++i, arg);
        case "--key-field" -> keyField = value(args, ++i, arg);
        case "--time-unit" -> timeUnit = value(args, ++i, arg);
        case "--spread" -> o.spread = true;
        case "--arithmetic" -> o.doubleArithmetic = parseArithmetic(value(args, ++i, arg));
        case "--store" -> o.store = value(args, ++i, arg);
        case "--redis-url" -> o.redisUrl = value(args, ++i, arg);
        case "--strict" -> o.strict = true;
        case "--report" -> o.report = Path.of(value(args, ++i, arg));
        case "--top-keys" -> {
          o.topKeys = parseTopKeys(value(args, ++i, arg));
          tableOnly = arg;
        }
        case "--steps" -> {
          o.steps = parseSteps(value(args, ++i, arg));
          sweepOnly = arg;
        }
        case "--target-rejection" -> {
          o.targetRejection = parsePercent(arg, value(args, ++i, arg));
          sweepOnly = arg;
        }
        case "-h", "--help" -> throw new ReplayException("help");
        default -> {
          if (arg.startsWith("--")) {
            throw new ReplayException("unknown option '" + arg + "'");
          }
          if (o.trace != null) {
            throw new ReplayException(
                "only one TRACE, but got '" + o.trace + "' and '" + arg + "'");
          }
          o.trace = Path.of(arg);
        }
      }
    }
    o.format = LogFormat.of(formatName, timeField, keyField, timeUnit);
    switch (o.command) {
      case "compare" -> {
        if (o.algorithm != null) {
          throw new ReplayException(
              "compare runs all five algorithms: drop --algorithm, or use sweep");
        }
        for (Algorithm a : Replay.RATES) {
          o.with(a, o.limit, o.window, o.rate, o.capacity); // validates the parameters now
        }
      }
      case "sweep" -> {
        if (o.algorithm == null) {
          throw new ReplayException("--algorithm is required");
        }
        Sweep.grid(o); // validates the grid now
      }
      default -> {
        if (o.algorithm == null) {
          throw new ReplayException("--algorithm is required");
        }
        o.policy(); // validates the parameters now
        if (o.report != null) {
          throw new ReplayException(
              "--report draws compare and sweep: use compare, or sweep with one setting");
        }
      }
    }
    if (tableOnly != null && o.command.equals("replay")) {
      throw new ReplayException(
          tableOnly + " is for compare and sweep; the one-algorithm command prints every key");
    }
    if (sweepOnly != null && !o.command.equals("sweep")) {
      throw new ReplayException(sweepOnly + " is for sweep");
    }
    if (!o.command.equals("replay") && (o.decisions || !o.store.equals("memory"))) {
      throw new ReplayException(
          o.command
              + " replays in memory and prints a table: "
              + (o.decisions ? "--decisions" : "--store")
              + " is for the one-algorithm command");
    }
    if (o.quota == null && (o.timeZone != null || o.anchorDay != null)) {
      throw new ReplayException(
          (o.timeZone != null ? "--time-zone" : "--anchor-day") + " is for --quota");
    }
    if (o.quota != null && o.doubleArithmetic) {
      throw new ReplayException("--quota replays in exact arithmetic: drop --arithmetic double");
    }
    switch (o.store) {
      case "memory" -> {
        if (o.redisUrl != null) {
          throw new ReplayException("--redis-url needs --store redis");
        }
      }
      case "redis" -> {
        if (o.redisUrl == null) {
          throw new ReplayException("--store redis needs --redis-url redis://host:port");
        }
        if (o.doubleArithmetic) {
          throw new ReplayException(
              "--arithmetic double replays in the tool itself, not in a store");
        }
      }
      default ->
          throw new ReplayException("--store: expected memory or redis, was '" + o.store + "'");
    }
    return o;
  }

  /** Replays the trace in memory, in the arithmetic asked for. */
  InMemoryReplay.Run run(Trace trace) {
    return doubleArithmetic
        ? DoubleArithmetic.replay(this, trace)
        : quota != null
            ? InMemoryReplay.replay(policy(), trace)
            : InMemoryReplay.replay(algorithm, policy().limits().get(0), trace);
  }

  /**
   * This command line for another algorithm and parameters, as compare and sweep try them; it keeps
   * the parameters that apply to the algorithm.
   */
  Options with(Algorithm algorithm, String limit, String window, String rate, String capacity) {
    Options o = new Options();
    o.algorithm = algorithm;
    if (algorithm.isBucket()) {
      o.rate = rate;
      o.capacity = capacity;
      o.initial = initial;
    } else {
      o.limit = limit;
      o.window = window;
    }
    o.doubleArithmetic = doubleArithmetic;
    o.quota = quota;
    o.timeZone = timeZone;
    o.anchorDay = anchorDay;
    o.policy(); // validates them
    return o;
  }

  /** The Redis store, driven by the trace's clock, which reads 0 now. */
  RateLimitStore redisStore(NanoClock traceClock) {
    try {
      // A prefix of its own, so that a replay never sees the state of an earlier one.
      return RedisStore.builder()
          .url(redisUrl)
          .callerClock(traceClock)
          // trace time is time since the epoch: so are the quotas' periods
          .wallClock(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC))
          .keyPrefix("limiter-replay:" + UUID.randomUUID() + ":")
          .decisionTimeout(Duration.ofSeconds(5))
          .socketTimeout(Duration.ofSeconds(5))
          .build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ReplayException("--redis-url: " + e.getMessage());
    }
  }

  Policy policy() {
    Policy policy = ratePolicy();
    if (quota == null) {
      return policy;
    }
    Limit calendar;
    try {
      calendar = Limit.parse(quota);
    } catch (IllegalArgumentException e) {
      throw new ReplayException("--quota: " + e.getMessage());
    }
    if (!calendar.isQuota()) {
      throw new ReplayException(
          "--quota: expected a calendar quota such as 10000/month, 500/day, /week or /year, was '"
              + quota
              + "'");
    }
    ZoneId zone;
    try {
      zone = timeZone == null ? ZoneOffset.UTC : Limit.parseZone(timeZone);
    } catch (IllegalArgumentException e) {
      throw new ReplayException("--time-zone: " + e.getMessage());
    }
    int day = anchorDay == null ? 1 : (int) positiveInteger("--anchor-day", anchorDay);
    if (day > 31) {
      throw new ReplayException("--anchor-day: expected 1 to 31, was '" + anchorDay + "'");
    }
    List<Limit> limits = List.of(policy.limits().get(0), calendar.inCalendar(zone, day));
    return new Policy("replay", algorithm, limits, FailureMode.FAIL_CLOSED);
  }

  /** The policy of --limit/--window or --rate/--capacity alone. */
  private Policy ratePolicy() {
    if (algorithm.isBucket()) {
      forbid("--limit", limit);
      forbid("--window", window);
      long burst = positiveInteger("--capacity", require("--capacity", capacity));
      Limit limit = rateLimit(require("--rate", rate), burst);
      if (initial != null) {
        long x = nonNegativeInteger("--initial", initial);
        if (x > burst) {
          throw new ReplayException(
              "--initial must be at most --capacity " + burst + ", was '" + initial + "'");
        }
        limit = limit.withInitial(x);
      }
      return new Policy("replay", algorithm, List.of(limit), FailureMode.FAIL_CLOSED);
    }
    forbid("--rate", rate);
    forbid("--capacity", capacity);
    forbid("--initial", initial);
    long n = positiveInteger("--limit", require("--limit", limit));
    Duration w = duration("--window", require("--window", window));
    try {
      return new Policy("replay", algorithm, List.of(Limit.of(n, w)), FailureMode.FAIL_CLOSED);
    } catch (IllegalArgumentException e) {
      throw new ReplayException("--limit/--window: " + e.getMessage());
    }
  }

  String describe() {
    String calendar =
        quota == null
            ? ""
            : " quota="
                + quota
                + (timeZone == null ? "" : " time-zone=" + timeZone)
                + (anchorDay == null ? "" : " anchor-day=" + anchorDay);
    return rates() + calendar;
  }

  private String rates() {
    return algorithm.isBucket()
        ? "rate="
            + rate
            + "/s capacity="
            + capacity
            + (initial == null ? "" : " initial=" + initial)
        : "limit=" + limit + " window=" + window + "s";
  }

  /** A decimal rate per second as an exact permits-per-period, e.g. 2.5 as 25 per 10 s. */
  private static Limit rateLimit(String text, long burst) {
    BigDecimal rate = decimal("--rate", text);
    if (rate.signum() <= 0) {
      throw new ReplayException("--rate must be positive, was '" + text + "'");
    }
    BigDecimal r = rate.stripTrailingZeros();
    try {
      long permits;
      Duration period;
      if (r.scale() <= 0) {
        permits = r.longValueExact();
        period = Duration.ofSeconds(1);
      } else {
        permits = r.unscaledValue().longValueExact();
        period = Duration.ofSeconds(BigDecimal.TEN.pow(r.scale()).longValueExact());
      }
      return Limit.bucket(permits, period, burst);
    } catch (ArithmeticException | IllegalArgumentException e) {
      throw new ReplayException("--rate: unsupported value '" + text + "': " + e.getMessage());
    }
  }

  private static Duration duration(String option, String text) {
    BigDecimal seconds = decimal(option, text);
    if (seconds.signum() <= 0) {
      throw new ReplayException(option + " must be positive seconds, was '" + text + "'");
    }
    try {
      return Duration.ofNanos(
          seconds.movePointRight(9).setScale(0, RoundingMode.HALF_EVEN).longValueExact());
    } catch (ArithmeticException e) {
      throw new ReplayException(option + ": out of range, was '" + text + "'");
    }
  }

  private static BigDecimal decimal(String option, String text) {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new ReplayException(option + ": expected a decimal number, was '" + text + "'");
    }
  }

  private static long positiveInteger(String option, String text) {
    long value = nonNegativeInteger(option, text);
    if (value < 1) {
      throw new ReplayException(option + " must be at least 1, was '" + text + "'");
    }
    return value;
  }

  private static long nonNegativeInteger(String option, String text) {
    try {
      long value = Long.parseLong(text);
      if (value < 0) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw new ReplayException(option + ": expected a non-negative integer, was '" + text + "'");
    }
  }

  private static String require(String option, String value) {
    if (value == null) {
      throw new ReplayException(option + " is required for this algorithm");
    }
    return value;
  }

  private void forbid(String option, String value) {
    if (value != null) {
      throw new ReplayException(option + " does not apply to " + algorithm);
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length || args[i].startsWith("--")) {
      throw new ReplayException(option + " needs a value");
    }
    return args[i];
  }

  private static Algorithm parseAlgorithm(String text) {
    Algorithm algorithm;
    try {
      algorithm = Algorithm.fromConfigName(text);
    } catch (IllegalArgumentException e) {
      throw new ReplayException("--algorithm: " + e.getMessage());
    }
    if (algorithm == Algorithm.CONCURRENCY) {
      throw new ReplayException(
          "--algorithm: a concurrency limit bounds requests in flight, and a trace records when"
              + " requests arrive, not when they end, so it cannot be replayed; expected one of "
              + Replay.RATES
              + ", was '"
              + text
              + "'");
    }
    return algorithm;
  }

  private static int parseTopKeys(String text) {
    try {
      int top = Integer.parseInt(text);
      if (top >= 1 && top <= 10_000) {
        return top;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ReplayException(
        "--top-keys: expected a whole number from 1 to 10000, was '" + text + "'");
  }

  private static int parseSteps(String text) {
    try {
      int steps = Integer.parseInt(text);
      if (steps >= 2 && steps <= 100) {
        return steps;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ReplayException("--steps: expected a whole number from 2 to 100, was '" + text + "'");
  }

  /** A share such as 0.1% (or 0.001), from 0 to 100%. */
  private static double parsePercent(String option, String text) {
    boolean percent = text.endsWith("%");
    try {
      double value = Double.parseDouble(percent ? text.substring(0, text.length() - 1) : text);
      value = percent ? value / 100 : value;
      if (value >= 0 && value <= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ReplayException(
        option + ": expected a share from 0% to 100% such as 0.1%, was '" + text + "'");
  }

  private static boolean parseArithmetic(String text) {
    return switch (text) {
      case "exact" -> false;
      case "double" -> true;
      default ->
          throw new ReplayException("--arithmetic: expected exact or double, was '" + text + "'");
    };
  }
}
