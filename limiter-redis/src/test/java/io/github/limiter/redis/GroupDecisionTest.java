package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Algorithm;
import io.github.limiter.Decision;
import io.github.limiter.FailureMode;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.PolicyStore;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import io.github.limiter.tck.Views;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A group of same-key requests decided in one call of decide.lua gets exactly the decisions that
 * the in-memory store (the reference: the pure functions) gives the same requests one at a time at
 * the same instant, and leaves the same state: for every algorithm a group can be, over seeded
 * random cases of one to three limits, a calendar quota or none, a state reached by random
 * decisions, charges (debt) and refunds over time, a live change of the limits or none, and groups
 * of 1 to 64 requests.
 */
@ExtendWith(RedisExtension.class)
class GroupDecisionTest {

  private static final int CASES = 150;

  private RedisServer server;

  @BeforeEach
  void server(RedisServer shared) {
    this.server = shared;
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"CONCURRENCY"},
      mode = EnumSource.Mode.EXCLUDE)
  void aGroupDecidesAsItsRequestsOneAtATimeAtOneInstant(Algorithm algorithm) {
    ManualClock clock = ManualClock.at(0);
    Clock wall = Clock.fixed(Instant.parse("2026-03-04T05:06:07Z"), ZoneOffset.UTC);
    try (RateLimitStore memory = InMemoryStore.builder().clock(clock).wallClock(wall).build();
        RedisStore redis =
            (RedisStore) RedisStandaloneContractTest.standalone(server, clock, wall)) {
      int admittedInGroups = 0;
      int refusedInGroups = 0;
      for (int run = 0; run < CASES; run++) {
        long seed = algorithm.ordinal() * 1_000_003L + run;
        Random random = new Random(seed);
        String name = "group-" + algorithm.configName() + "-" + run;
        Policy policy = policy(name, algorithm, random);
        PolicyStore mem = memory.bind(policy);
        PolicyStore red = redis.bind(policy);
        // The group decides key; twin has the same history on Redis, and decides the group's
        // requests one at a time: the reference at Redis's resolution. The memory store is the
        // reference itself, but after a live change of the limits the carried state is rounded
        // to microseconds on Redis, to nanoseconds in memory: those cases compare with the twin.
        String key = "k" + run;
        String twin = "t" + run;
        String why = "seed " + seed + ", " + policy;
        boolean versioned = random.nextInt(4) == 0;
        int history = random.nextInt(30);
        boolean touched = false;
        for (int step = 0; step < history; step++) {
          if (versioned && step == history / 2) {
            Policy next = policy(name, algorithm, random);
            why += " then " + next;
            mem = Views.versions(memory).rebind(mem, next);
            red = redis.rebind(red, next);
          }
          clock.advance(micros(random.nextInt(4) == 0 ? 0 : random.nextInt(400_000)));
          int op = random.nextInt(10);
          long permits = 1 + random.nextInt(4);
          if (op < 7) {
            String reference = seen(mem.decide(key, permits));
            String decided = seen(red.decide(key, permits));
            assertThat(seen(red.decide(twin, permits))).as(why).isEqualTo(decided);
            if (!versioned) {
              assertThat(decided).as(why).isEqualTo(reference);
            }
            touched = true;
          } else if (op < 9) {
            long charge = permits * (1 + random.nextInt(8)); // debt, maybe
            mem.adjust(key, charge);
            red.adjust(key, charge);
            red.adjust(twin, charge);
            touched = true;
          } else if (touched) {
            // A refund of a key never seen: Redis leaves it missing, which reads as its initial
            // state again, where the reference refunds that initial state.
            mem.adjust(key, -permits);
            red.adjust(key, -permits);
            red.adjust(twin, -permits);
          }
        }
        clock.advance(micros(random.nextInt(200_000)));
        long permits = 1 + random.nextInt(3);
        int size = 1 + random.nextInt(64);
        List<String> expected = new ArrayList<>();
        List<String> oneByOne = new ArrayList<>();
        int admitted = 0;
        for (int m = 0; m < size; m++) {
          Decision d = mem.decide(key, permits);
          expected.add(seen(d));
          oneByOne.add(seen(red.decide(twin, permits)));
          admitted += d.isAllowed() ? 1 : 0;
        }
        List<String> actual =
            Arrays.stream(redis.decideGroup(red, key, permits, size))
                .map(GroupDecisionTest::seen)
                .toList();
        String group = why + ", group of " + size + " x " + permits;
        assertThat(actual).as(group).isEqualTo(oneByOne);
        assertThat(seen(redis.peek(red, key)))
            .as(group + ", state after")
            .isEqualTo(seen(redis.peek(red, twin)));
        if (!versioned) {
          assertThat(actual).as(group).isEqualTo(expected);
          assertThat(seen(redis.peek(red, key)))
              .as(group + ", state after")
              .isEqualTo(seen(Views.peek(memory).peek(mem, key)));
        }
        clock.advance(micros(random.nextInt(100_000)));
        String next = seen(red.decide(key, 1));
        assertThat(seen(red.decide(twin, 1))).as(group + ", next").isEqualTo(next);
        if (!versioned) {
          assertThat(next).as(group + ", next").isEqualTo(seen(mem.decide(key, 1)));
        }
        admittedInGroups += admitted;
        refusedInGroups += size - admitted;
      }
      // The cases reach both sides of a group's cut.
      assertThat(admittedInGroups).isGreaterThan(CASES);
      assertThat(refusedInGroups).isGreaterThan(CASES);
    }
  }

  /**
   * A decision as Redis can give it: its retry-after in whole microseconds, rounded up (the
   * reference's first admissible instant may be a nanosecond past a microsecond, Redis's the next
   * microsecond).
   */
  private static String seen(Decision d) {
    long retry = d.retryAfterNanos();
    long micros = retry == Long.MAX_VALUE ? retry : -Math.floorDiv(-retry, 1_000L);
    return d.outcome()
        + " "
        + d.limit()
        + " remaining="
        + d.remaining()
        + " reset="
        + d.resetAfterNanos()
        + " retry="
        + micros
        + " delay="
        + d.delayNanos();
  }

  private static Duration micros(long micros) {
    return Duration.ofNanos(micros * 1_000);
  }

  /**
   * One to three limits of distinct periods in whole microseconds (so that Redis's microsecond
   * parameters are the reference's exactly), a calendar quota in a third of the cases.
   */
  private static Policy policy(String name, Algorithm algorithm, Random random) {
    List<Limit> limits = new ArrayList<>();
    Set<Long> periods = new HashSet<>();
    int rates = 1 + random.nextInt(3);
    while (limits.size() < rates) {
      Limit limit;
      if (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.LEAKY_BUCKET) {
        long permits = 1 + random.nextInt(20);
        long interval = 100 + random.nextInt(50_000);
        long burst = 1 + random.nextInt(30);
        limit = Limit.bucket(permits, micros(permits * interval), burst);
        if (!periods.add(permits * interval)) {
          continue;
        }
      } else {
        long window = 1_000 * (1 + random.nextInt(500));
        limit = Limit.of(1 + random.nextInt(40), micros(window));
        if (!periods.add(window)) {
          continue;
        }
      }
      limits.add(limit);
    }
    if (random.nextInt(3) == 0) {
      limits.add(Limit.quota(5 + random.nextInt(200), ChronoUnit.DAYS));
    }
    return new Policy(name, algorithm, limits, FailureMode.FAIL_CLOSED);
  }
}
