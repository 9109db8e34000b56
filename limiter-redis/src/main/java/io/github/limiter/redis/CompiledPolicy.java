package io.github.limiter.redis;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.algorithm.CalendarPeriods;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A policy prepared for the scripts: its key names and its parameters in whole microseconds,
 * computed once; and the way from a script's reply back to a {@link Decision}.
 *
 * <p>Parameters round as the pure functions do at microsecond resolution: the window or period up
 * to whole microseconds, and the emission interval {@code ceil(period / permits)} up from there.
 */
final class CompiledPolicy {

  private static final long NANOS_PER_MICRO = 1_000;

  final Policy policy;
  final Scripts.Script decide;
  final Scripts.Script adjust;
  final Scripts.Script peek;

  /** For concurrency, the script that renews this node's holds; null for the other algorithms. */
  final Scripts.Script renew;

  final String head;
  private final String[] suffixes;
  private final List<String> params;

  /**
   * The policy's limits in the scripts' order: its rates and windows first, then its calendar
   * quotas, whose keys and parameters follow theirs.
   */
  private final Limit[] ordered;

  /** Where each of the policy's limits, in its order, stands in {@link #ordered}. */
  private final int[] positions;

  /** The calendar quotas, each with the periods around the last instant asked for. */
  private final Quota[] quotas;

  /** A policy of an algorithm that holds no permits per node (any but concurrency). */
  CompiledPolicy(Policy policy, KeyScheme keys) {
    this(policy, keys, "", 0, "");
  }

  /**
   * @param node this store's node id, under which it holds concurrency permits
   * @param holdNanos how long a node's hold on concurrency permits lives without renewal
   * @param since when this version of the policy took effect, in the scripts' microseconds: a key
   *     stored under other limits carries over as of then; '' for as of its next decision
   */
  CompiledPolicy(Policy policy, KeyScheme keys, String node, long holdNanos, String since) {
    this.policy = policy;
    Algorithm algorithm = policy.algorithm();
    boolean hasQuotas = policy.limits().stream().anyMatch(Limit::isQuota);
    this.decide = Scripts.decide(algorithm, hasQuotas);
    this.adjust = Scripts.adjust(algorithm, hasQuotas);
    this.peek = Scripts.peek(algorithm, hasQuotas);
    this.renew = Scripts.renew(algorithm);
    this.head = keys.head(policy.name());
    List<Limit> rates = policy.limits().stream().filter(l -> !l.isQuota()).toList();
    List<Limit> quotaLimits = policy.limits().stream().filter(Limit::isQuota).toList();
    this.ordered = new Limit[rates.size() + quotaLimits.size()];
    this.suffixes = new String[ordered.length];
    this.quotas = new Quota[quotaLimits.size()];
    for (int j = 0; j < quotas.length; j++) {
      int at = rates.size() + j;
      ordered[at] = quotaLimits.get(j);
      quotas[j] = new Quota(quotaLimits.get(j));
      // q, for quota, and its period: a quota never shares a key with an algorithm's state.
      suffixes[at] = "q" + quotaLimits.get(j).calendar().name().charAt(0) + j;
    }
    this.positions = new int[ordered.length];
    for (int k = 0, r = 0, j = rates.size(); k < positions.length; k++) {
      positions[k] = policy.limits().get(k).isQuota() ? j++ : r++;
    }
    List<Limit> limits = rates;
    List<String> p = new ArrayList<>();
    for (int i = 0; i < limits.size(); i++) {
      Limit limit = limits.get(i);
      ordered[i] = limit;
      suffixes[i] = code(algorithm) + i;
      long period = ceilDiv(limit.periodNanos(), NANOS_PER_MICRO);
      switch (algorithm) {
        case TOKEN_BUCKET -> {
          p.add(Long.toString(ceilDiv(period, limit.permits())));
          p.add(Long.toString(limit.burst()));
          p.add(Long.toString(limit.initial().orElse(limit.burst())));
          p.add(since);
        }
        case LEAKY_BUCKET -> {
          p.add(Long.toString(ceilDiv(period, limit.permits())));
          p.add(Long.toString(limit.burst()));
          p.add(Long.toString(limit.initial().orElse(0)));
          p.add(since);
        }
        case FIXED_WINDOW, SLIDING_WINDOW_COUNTER -> {
          p.add(Long.toString(period));
          p.add(Long.toString(limit.permits()));
          p.add(since);
        }
        case SLIDING_WINDOW_LOG -> {
          // The log's timestamps hold under any limit: the new N and W apply to them as they are.
          p.add(Long.toString(period));
          p.add(Long.toString(limit.permits()));
        }
        case CONCURRENCY -> {
          p.add(Long.toString(limit.permits()));
          p.add(Long.toString(period)); // the Retry-After hint
          p.add(Long.toString(ceilDiv(holdNanos, NANOS_PER_MICRO)));
          p.add(node);
        }
      }
    }
    this.params = List.copyOf(p);
  }

  static String code(Algorithm algorithm) {
    return switch (algorithm) {
      case TOKEN_BUCKET -> "tb";
      case LEAKY_BUCKET -> "lb";
      case FIXED_WINDOW -> "fw";
      case SLIDING_WINDOW_COUNTER -> "sc";
      case SLIDING_WINDOW_LOG -> "sl";
      case CONCURRENCY -> "cc";
    };
  }

  /** The keys of {@code clientKey}, one per limit, all with the same hash tag. */
  List<String> keys(String clientKey) {
    String tag = KeyScheme.tag(head, clientKey);
    if (suffixes.length == 1) {
      return List.of(tag + suffixes[0]);
    }
    String[] keys = new String[suffixes.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = tag + suffixes[i];
    }
    return List.of(keys);
  }

  /**
   * Lease mode's keys of {@code clientKey}: its limits' keys, then the hash of its nodes' leases,
   * {@code <tag><algorithm>-leases}, in the same slot.
   */
  List<String> leaseKeys(String clientKey) {
    String tag = KeyScheme.tag(head, clientKey);
    List<String> keys = new ArrayList<>(suffixes.length + 1);
    for (String suffix : suffixes) {
      keys.add(tag + suffix);
    }
    keys.add(tag + code(policy.algorithm()) + "-leases");
    return List.copyOf(keys);
  }

  /** ARGV: now ('' for server time), permits, the least TTL in ms, then the limits' parameters. */
  List<String> args(String now, long permits, String ttlFloorMillis) {
    return args(now, Long.toString(permits), ttlFloorMillis);
  }

  private List<String> args(String now, String permits, String ttlFloorMillis) {
    List<String> args = new ArrayList<>(3 + params.size());
    args.add(now);
    args.add(permits);
    args.add(ttlFloorMillis);
    args.addAll(params);
    return args;
  }

  /**
   * The ARGV of decide.lua, adjust.lua and peek.lua: {@link #args}, then, for a policy with
   * calendar quotas, each quota's N and the boundaries of three periods, then the number of quotas
   * (a policy without quotas runs their scripts' plain shape, which reads none of this). The
   * periods are the one around {@code at} (the caller's wall clock, or the server's time a script
   * answered) and its neighbours, in the scripts' microseconds: epoch microseconds less {@code
   * scriptEpochMicros}. The script picks the one of its own time.
   */
  List<String> quotaArgs(
      String now, long permits, String ttlFloorMillis, long at, long scriptEpochMicros) {
    return quotaArgs(now, Long.toString(permits), ttlFloorMillis, at, scriptEpochMicros);
  }

  /** {@link #quotaArgs} with ARGV[2] as given: decide.lua's group of {@code "permits:size"}. */
  List<String> quotaArgs(
      String now, String permits, String ttlFloorMillis, long at, long scriptEpochMicros) {
    List<String> args = args(now, permits, ttlFloorMillis);
    if (quotas.length == 0) {
      return args;
    }
    long wallMillis = Math.floorDiv(scriptEpochMicros + at, 1_000L);
    for (Quota quota : quotas) {
      args.add(Long.toString(quota.limit.permits()));
      for (long boundary : quota.periods(wallMillis)) {
        args.add(Long.toString(boundary * 1_000L - scriptEpochMicros));
      }
    }
    args.add(Integer.toString(quotas.length));
    return args;
  }

  /**
   * The script's time, in its microseconds, if {@code reply} says that it found that time outside
   * the three periods of a quota (prelude.lua's section period): the call is then to be made again
   * with the periods around that instant.
   */
  static OptionalLong outsidePeriods(Object reply) {
    return reply instanceof List<?> values && values.size() == 1
        ? OptionalLong.of(number(values.get(0)))
        : OptionalLong.empty();
  }

  /**
   * A calendar quota and the periods around the last instant asked for, computed with the zone
   * rules again only when that instant leaves the middle one (periods are not of one length: a day
   * has 23 or 25 hours on a daylight-saving change).
   */
  private static final class Quota {
    final Limit limit;

    /** {start of the period before, start, end, end of the period after} in epoch milliseconds. */
    private volatile long[] span = {0, 0, 0, 0};

    Quota(Limit limit) {
      this.limit = limit;
    }

    long[] periods(long wallMillis) {
      long[] s = span;
      if (wallMillis >= s[1] && wallMillis < s[2]) {
        return s;
      }
      long[] now = period(wallMillis);
      s = new long[] {period(now[0] - 1)[0], now[0], now[1], period(now[1])[1]};
      span = s;
      return s;
    }

    private long[] period(long epochMillis) {
      return CalendarPeriods.period(epochMillis, limit.calendar(), limit.zone(), limit.anchorDay());
    }
  }

  /**
   * The decision a decide script returned: {outcome, limit, remaining, resetAfter, retryAfter,
   * delay}; or, by the first limit, "remaining resetAfter" for an admission without delay and
   * "-retryAfter resetAfter" for a refusal.
   */
  Decision decision(Object reply) {
    if (reply instanceof String text) {
      int space = text.indexOf(' ');
      try {
        long first = Long.parseLong(text, 0, space, 10);
        long reset = Long.parseLong(text, space + 1, text.length(), 10) * NANOS_PER_MICRO;
        return first >= 0
            ? Decision.allowed(policy.name(), ordered[0], first, reset, 0)
            : Decision.limited(policy.name(), ordered[0], reset, -first * NANOS_PER_MICRO);
      } catch (IndexOutOfBoundsException | NumberFormatException e) {
        throw new IllegalStateException("unexpected reply from " + decide.name() + ": " + reply, e);
      }
    }
    if (!(reply instanceof List<?> values) || values.size() != 6) {
      throw new IllegalStateException("unexpected reply from " + decide.name() + ": " + reply);
    }
    return decision(values, number(values.get(5)));
  }

  /** The decision of {outcome, limit, remaining, resetAfter, retryAfter}, with {@code delay}. */
  private Decision decision(List<?> values, long delayMicros) {
    long outcome = number(values.get(0));
    Limit limit = ordered[(int) number(values.get(1)) - 1];
    long remaining = number(values.get(2));
    long reset = number(values.get(3)) * NANOS_PER_MICRO;
    long retry = number(values.get(4)) * NANOS_PER_MICRO;
    long delay = delayMicros * NANOS_PER_MICRO;
    String name = policy.name();
    return switch ((int) outcome) {
      case 1 -> Decision.allowed(name, limit, remaining, reset, delay);
      case 0 -> Decision.limited(name, limit, reset, retry);
      case 2 -> Decision.exceedsCapacity(name, limit, remaining, reset);
      default ->
          throw new IllegalStateException(
              "unexpected outcome from " + decide.name() + ": " + values);
    };
  }

  /**
   * The decisions of a group of {@code size} requests of {@code permits} each, in arrival order,
   * from decide.lua's group reply: {k, outcome, limit, remaining, resetAfter, retryAfter} (the
   * refusal of requests k + 1 to size), then, if k > 0, {left, reset, reset at k, delay, delay at
   * k} of each limit after the first admission. The m-th admission leaves each limit's left less (m
   * - 1) permits (at least 0), and its reset and delay a step further for each admission before it:
   * the step is the one from the first admission to the k-th, divided evenly. The binding limit of
   * an admission is, as decide.lua picks it, the first one with the fewest permits left; its delay
   * the longest.
   */
  Decision[] decisions(Object reply, int size, long permits) {
    if (size == 1) {
      return new Decision[] {decision(reply)};
    }
    if (!(reply instanceof List<?> values) || values.size() < 6) {
      throw new IllegalStateException("unexpected reply from " + decide.name() + ": " + reply);
    }
    int k = (int) number(values.get(0));
    if (k < 0 || k > size || values.size() != 6 + (k > 0 ? 5 * ordered.length : 0)) {
      throw new IllegalStateException("unexpected reply from " + decide.name() + ": " + reply);
    }
    Decision[] decisions = new Decision[size];
    if (k < size) {
      Decision refused = decision(values.subList(1, 6), 0);
      for (int m = k; m < size; m++) {
        decisions[m] = refused;
      }
    }
    if (k == 0) {
      return decisions;
    }
    int limits = ordered.length;
    long[] left = new long[limits];
    long[] reset = new long[limits];
    long[] resetStep = new long[limits];
    long[] delay = new long[limits];
    long[] delayStep = new long[limits];
    for (int l = 0; l < limits; l++) {
      int at = 6 + 5 * l;
      left[l] = number(values.get(at));
      reset[l] = number(values.get(at + 1));
      delay[l] = number(values.get(at + 3));
      if (k > 1) {
        resetStep[l] = step(reset[l], number(values.get(at + 2)), k - 1, reply);
        delayStep[l] = step(delay[l], number(values.get(at + 4)), k - 1, reply);
      }
    }
    String name = policy.name();
    for (int m = 0; m < k; m++) {
      int bind = 0;
      long least = Long.MAX_VALUE;
      long longest = 0;
      for (int l = 0; l < limits; l++) {
        long remaining = Math.max(0, left[l] - m * permits);
        if (remaining < least) {
          least = remaining;
          bind = l;
        }
        longest = Math.max(longest, delay[l] + m * delayStep[l]);
      }
      long resetAfter = (reset[bind] + m * resetStep[bind]) * NANOS_PER_MICRO;
      decisions[m] =
          Decision.allowed(name, ordered[bind], least, resetAfter, longest * NANOS_PER_MICRO);
    }
    return decisions;
  }

  /** The even step from {@code first} to {@code last} over {@code steps} admissions. */
  private long step(long first, long last, int steps, Object reply) {
    long d = last - first;
    if (d % steps != 0) {
      throw new IllegalStateException(
          "uneven steps in the reply from " + decide.name() + ": " + reply);
    }
    return d / steps;
  }

  /**
   * What a peek script returned, {remaining, resetAfter} of each limit in the scripts' order, as an
   * admission of nothing under the binding limit: as the in-memory store reads it, the first of the
   * policy's limits, in the policy's order, with the fewest permits left.
   */
  Decision peeked(Object reply) {
    if (!(reply instanceof List<?> values) || values.size() != 2 * ordered.length) {
      throw new IllegalStateException("unexpected reply from " + peek.name() + ": " + reply);
    }
    int bind = positions[0];
    long least = Long.MAX_VALUE;
    for (int at : positions) {
      long left = number(values.get(2 * at));
      if (left < least) {
        least = left;
        bind = at;
      }
    }
    long reset = number(values.get(2 * bind + 1)) * NANOS_PER_MICRO;
    return Decision.allowed(policy.name(), ordered[bind], least, reset, 0);
  }

  private static long number(Object value) {
    if (value instanceof Long n) {
      return n;
    }
    throw new IllegalStateException("expected an integer in the script reply, was " + value);
  }

  static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
