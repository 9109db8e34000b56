package io.github.limiter.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.KeyResolver;
import io.github.limiter.Limiter;
import io.github.limiter.RequestView;
import io.github.limiter.internal.config.Criticality;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.render.RateLimitResponse;
import io.github.limiter.internal.render.ResponseRenderer;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Concurrency limits under overload, in the one admission step: criticality decides who is refused
 * first, and an adaptive limit learns from the latencies its requests end with.
 */
class SheddingTest {

  private static final long MS = 1_000_000L;
  private static final String PROXY = "10.0.0.1";

  /** Answers what the request's X-Resolved header says. */
  private static final KeyResolver RESOLVER =
      new KeyResolver() {
        @Override
        public String name() {
          return "importance";
        }

        @Override
        public String resolve(RequestView request) {
          return request.header("X-Resolved");
        }
      };

  private final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  private final Limiter limiter = Limiter.of(InMemoryStore.builder().clock(clock).build());

  @AfterEach
  void close() {
    limiter.close();
  }

  private static LimiterConfig config(String... pairs) {
    Map<String, String> map = new HashMap<>();
    map.put("limiter.http.trusted-proxies", PROXY + "/32");
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return LimiterConfig.from(ConfigLookup.of(map));
  }

  private final class Setup {
    final LimiterConfig config;
    final Admission admission;
    final RuleCompiler compiler;

    Setup(LimiterConfig config) {
      this.config = config;
      this.admission =
          new Admission(
              new ClientAddress(config.http()), true, false, (r, o) -> {}, AdmissionMetrics.OFF);
      this.compiler = new RuleCompiler(admission, (policy, setting, name) -> () -> RESOLVER, clock);
    }

    PolicySet set(Criticality criticality, String... names) {
      List<Rule> rules = new ArrayList<>();
      for (String name : names) {
        rules.add(compiler.compile(config.policy(name).orElseThrow()));
      }
      return PolicySet.of(rules, limiter::bind, criticality);
    }
  }

  private static AdmissionTest.View from(String remote, String... headers) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < headers.length; i += 2) {
      map.put(headers[i], headers[i + 1]);
    }
    return new AdmissionTest.View(remote, map);
  }

  /** Admits requests of {@code criticality} until one is refused; returns how many passed. */
  private static int fill(Admission admission, PolicySet set, AdmissionTest.View request) {
    int admitted = 0;
    while (admission.admit(set, request).allowed()) {
      admitted++;
    }
    return admitted;
  }

  @Test
  void aFixedLimitKeepsAShareForCriticalRequestsAndRefusesSheddableOnesFirst() {
    // Given 10 in flight per node, with 10% kept for critical requests
    Setup setup =
        new Setup(
            config(
                "limiter.policy.db.algorithm", "concurrency",
                "limiter.policy.db.limits", "10",
                "limiter.policy.db.critical-share", "0.1",
                "limiter.policy.db.key", "constant"));
    AdmissionTest.View request = from("192.0.2.1");
    // When sheddable requests arrive, then default ones, then critical ones
    int sheddable = fill(setup.admission, setup.set(Criticality.SHEDDABLE, "db"), request);
    int defaults = fill(setup.admission, setup.set(Criticality.DEFAULT, "db"), request);
    int critical = fill(setup.admission, setup.set(Criticality.CRITICAL, "db"), request);
    // Then sheddable ones leave two shares of one free, default ones one, and critical ones fill it
    assertThat(sheddable).isEqualTo(8);
    assertThat(defaults).isEqualTo(1);
    assertThat(critical).isEqualTo(1);
  }

  @Test
  void aSheddingRefusalIsAnOverloadRenderedAs503WithRetryAfterAndGivesEveryChargeBack() {
    // Given a fixed concurrency limit of 2 and a rate limit, both on one route
    Setup setup =
        new Setup(
            config(
                "limiter.policy.db.algorithm", "concurrency",
                "limiter.policy.db.limits", "2",
                "limiter.policy.db.retry-after", "3s",
                "limiter.policy.db.critical-share", "0.4",
                "limiter.policy.rate.algorithm", "fixed-window",
                "limiter.policy.rate.limits", "100/1m"));
    PolicySet set = setup.set(Criticality.DEFAULT, "rate", "db");
    // When a default request finds one of two permits held
    RequestFrame first = setup.admission.admit(set, from("192.0.2.1"));
    RequestFrame refused = setup.admission.admit(set, from("192.0.2.1"));
    // Then it is refused as an overload
    assertThat(first.allowed()).isTrue();
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.rejection().outcome()).isEqualTo(Decision.Outcome.OVERLOADED);
    // And rendered as a 503 that says why, with the policy's Retry-After
    RateLimitResponse response =
        new ResponseRenderer(setup.config.http())
            .rejection(refused.policy(refused.rejectedAt()), refused.rejection());
    assertThat(response.status()).isEqualTo(503);
    assertThat(response.header("Retry-After")).isEqualTo("3");
    assertThat(response.body()).contains("overloaded").contains("concurrency limit");
    // And neither policy kept its charge: the rate limit has 99 left, the concurrency limit 1
    RequestFrame critical =
        setup.admission.admit(setup.set(Criticality.CRITICAL, "rate", "db"), from("192.0.2.1"));
    assertThat(critical.decision(0).remaining()).isEqualTo(98);
    assertThat(critical.decision(1).remaining()).isZero();
  }

  @Test
  void aFixedLimitKeepsNoShareUnlessOneIsSetSoItAdmitsItsNOfAnyCriticality() {
    Setup setup =
        new Setup(
            config(
                "limiter.policy.db.algorithm", "concurrency",
                "limiter.policy.db.limits", "10",
                "limiter.policy.db.key", "constant"));
    assertThat(fill(setup.admission, setup.set(Criticality.SHEDDABLE, "db"), from("192.0.2.1")))
        .isEqualTo(10);
  }

  @Test
  void aPlansLimitIsTheOneItsSharesAreTakenFromAndWhatIsGivenBack() {
    // Given 10 in flight, 20 for plan pro, 10% kept for critical requests
    Setup setup =
        new Setup(
            config(
                "limiter.policy.db.algorithm", "concurrency",
                "limiter.policy.db.limits", "10",
                "limiter.policy.db.plan.pro.limits", "20",
                "limiter.policy.db.plan-source", "header:X-Plan",
                "limiter.policy.db.critical-share", "0.1",
                "limiter.policy.db.key", "constant"));
    AdmissionTest.View pro = from(PROXY, "X-Plan", "pro");
    // Then sheddable pro requests leave two shares of 2 free, and the refusals gave back nothing
    // that was not theirs: critical pro requests fill the rest of the 20
    assertThat(fill(setup.admission, setup.set(Criticality.SHEDDABLE, "db"), pro)).isEqualTo(16);
    assertThat(fill(setup.admission, setup.set(Criticality.CRITICAL, "db"), pro)).isEqualTo(4);
    assertThat(fill(setup.admission, setup.set(Criticality.CRITICAL, "db"), from("192.0.2.1")))
        .isEqualTo(10);
  }

  @Test
  void aCriticalityHeaderIsBelievedOnlyFromATrustedProxy() {
    // Given 10 in flight, criticality from the X-Criticality header
    Setup setup =
        new Setup(
            config(
                "limiter.policy.db.algorithm", "concurrency",
                "limiter.policy.db.limits", "10",
                "limiter.policy.db.key", "constant",
                "limiter.policy.db.critical-share", "0.1",
                "limiter.policy.db.criticality", "header:X-Criticality"));
    PolicySet set = setup.set(null, "db");
    // When a client says its requests are critical, directly
    int direct = fill(setup.admission, set, from("192.0.2.1", "X-Criticality", "critical"));
    // Then it is not believed: a default request leaves one permit free
    assertThat(direct).isEqualTo(9);
    // And when the trusted proxy says so, the request may take the reserved permit
    assertThat(
            setup
                .admission
                .admit(
                    set, from(PROXY, "X-Criticality", "critical", "X-Forwarded-For", "192.0.2.1"))
                .allowed())
        .isTrue();
  }

  @Test
  void aRouteLevelCriticalityAppliesWhenTheRequestNamesNoneAndAResolverWinsOverIt() {
    // Given a criticality resolver, and a route that says its requests are sheddable
    Setup setup =
        new Setup(
            config(
                "limiter.policy.db.algorithm", "concurrency",
                "limiter.policy.db.limits", "10",
                "limiter.policy.db.key", "constant",
                "limiter.policy.db.critical-share", "0.1",
                "limiter.policy.db.criticality", "resolver:importance"));
    PolicySet set = setup.set(Criticality.SHEDDABLE, "db");
    // Then a request without an answer is sheddable, and one the resolver calls critical is
    assertThat(fill(setup.admission, set, from("192.0.2.1"))).isEqualTo(8);
    assertThat(fill(setup.admission, set, from("192.0.2.1", "X-Resolved", "critical")))
        .isEqualTo(2);
  }

  @Test
  void anAdaptiveLimitLearnsFromTheLatencyItsRequestsEndWith() {
    // Given an adaptive limit, which first measures its baseline at 3 in flight
    Setup setup =
        new Setup(
            config(
                "limiter.policy.backend.algorithm", "concurrency",
                "limiter.policy.backend.limits", "adaptive",
                "limiter.policy.backend.adaptive-initial", "40",
                "limiter.policy.backend.critical-share", "0"));
    PolicySet set = setup.set(null, "backend");
    AdaptiveGate gate = setup.compiler.gate(setup.config.policy("backend").orElseThrow());
    assertThat(gate.limit()).isEqualTo(3);
    // When requests taking 20 ms end, one at a time
    for (int i = 0; i < 20; i++) {
      RequestFrame frame = setup.admission.admit(set, from("192.0.2.1"));
      assertThat(frame.allowed()).isTrue();
      assertThat(gate.inFlight()).isEqualTo(1);
      clock.advance(20 * MS);
      frame.end(200, null);
    }
    // Then the baseline is 20 ms and the limit the initial one, for every client alike
    assertThat(gate.baselineNanos()).isEqualTo(20 * MS);
    assertThat(gate.limit()).isEqualTo(40);
    assertThat(gate.inFlight()).isZero();
    // And when 40 are in flight, the next is refused as an overload, from any client
    List<RequestFrame> held = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      held.add(setup.admission.admit(set, from("192.0.2." + i)));
    }
    RequestFrame refused = setup.admission.admit(set, from("198.51.100.7"));
    assertThat(refused.rejection().outcome()).isEqualTo(Decision.Outcome.OVERLOADED);
    // And when they end three times slower than the baseline, the limit shrinks
    clock.advance(60 * MS);
    held.forEach(frame -> frame.end(200, null));
    assertThat(gate.inFlight()).isZero();
    assertThat(gate.limit()).isLessThan(40);
  }

  @Test
  void aProbeHoldsTheLowerCriticalitiesAtItsLevelAndKeepsTheCriticalReserveAboveIt() {
    // Given an adaptive limit of 40 that keeps 20% for critical requests, measuring its baseline
    Setup setup =
        new Setup(
            config(
                "limiter.policy.backend.algorithm", "concurrency",
                "limiter.policy.backend.limits", "adaptive",
                "limiter.policy.backend.adaptive-initial", "40"));
    AdaptiveGate gate = setup.compiler.gate(setup.config.policy("backend").orElseThrow());
    AdmissionTest.View request = from("192.0.2.1");
    // When sheddable, default and critical requests arrive while it probes
    int sheddable = fill(setup.admission, setup.set(Criticality.SHEDDABLE, "backend"), request);
    int defaults = fill(setup.admission, setup.set(Criticality.DEFAULT, "backend"), request);
    int critical = fill(setup.admission, setup.set(Criticality.CRITICAL, "backend"), request);
    // Then the lower ones share the probe's 3, and critical ones still have the 8 kept for them
    assertThat(sheddable + defaults).isEqualTo(3);
    assertThat(critical).isEqualTo(8);
    assertThat(gate.limit()).isEqualTo(11);
    assertThat(gate.inFlight()).isEqualTo(11);
  }

  @Test
  void aProbeOfASmallLimitLeavesTheLowerCriticalitiesOnlyWhatTheLearnedLimitWould() {
    // Given an adaptive limit of at most 4 that keeps 20% (1) for critical requests, probing at 3
    Setup setup =
        new Setup(
            config(
                "limiter.policy.backend.algorithm", "concurrency",
                "limiter.policy.backend.limits", "adaptive",
                "limiter.policy.backend.adaptive-ceiling", "4",
                "limiter.policy.backend.adaptive-initial", "4"));
    AdaptiveGate gate = setup.compiler.gate(setup.config.policy("backend").orElseThrow());
    AdmissionTest.View request = from("192.0.2.1");
    // When sheddable, default and critical requests arrive while it probes
    int sheddable = fill(setup.admission, setup.set(Criticality.SHEDDABLE, "backend"), request);
    int defaults = fill(setup.admission, setup.set(Criticality.DEFAULT, "backend"), request);
    int critical = fill(setup.admission, setup.set(Criticality.CRITICAL, "backend"), request);
    // Then sheddable ones leave two shares of the learned 4 free, as they will once the probe ends,
    // a default one takes the probe's third permit, and the critical reserve is above the probe
    assertThat(sheddable).isEqualTo(2);
    assertThat(defaults).isEqualTo(1);
    assertThat(critical).isEqualTo(1);
    assertThat(gate.limit()).isEqualTo(4);
    assertThat(gate.inFlight()).isEqualTo(4);
  }

  /** What the requests of one criticality got in {@link #overload}. */
  private record Got(int requests, int good, int refused) {}

  /**
   * A backend of 8 slots at 20 ms (400 requests a second), first come first served, that stalls for
   * {@code stallMs} every 500 ms (nothing ends meanwhile: a pause, a noisy neighbour), behind the
   * policy {@code backend} in the one admission step. Offered 1200 requests a second for 12 s,
   * evenly spaced, 10% critical (seeded), the others sheddable: a discrete-event model on the
   * manual clock. Returns, over the last 10 s, what the critical and the sheddable requests got
   * (good: admitted and ended within 200 ms of arriving).
   */
  private Got[] overload(Setup setup, long stallMs) {
    PolicySet critical = setup.set(Criticality.CRITICAL, "backend");
    PolicySet sheddable = setup.set(Criticality.SHEDDABLE, "backend");
    AdmissionTest.View request = from("192.0.2.1");
    long start = clock.nanos();
    long gap = 1_000_000_000L / 1200;
    long period = 500 * MS;
    // each admitted request: {end, index}; frames by index
    PriorityQueue<long[]> running = new PriorityQueue<>((a, b) -> Long.compare(a[0] - b[0], 0));
    PriorityQueue<Long> slotsFree = new PriorityQueue<>((a, b) -> Long.compare(a - b, 0));
    for (int i = 0; i < 8; i++) {
      slotsFree.add(start);
    }
    List<RequestFrame> frames = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(27);
    int[][] got = new int[2][3];
    for (int i = 0; i < 12 * 1200; i++) {
      long now = start + i * gap;
      while (!running.isEmpty() && running.peek()[0] - now <= 0) {
        long[] done = running.poll();
        clock.set(done[0]);
        frames.get((int) done[1]).end(200, null);
      }
      clock.set(now);
      boolean isCritical = random.nextDouble() < 0.1;
      RequestFrame frame = setup.admission.admit(isCritical ? critical : sheddable, request);
      boolean measured = now - start >= 2_000 * MS;
      int[] counts = got[isCritical ? 0 : 1];
      counts[0] += measured ? 1 : 0;
      if (!frame.allowed()) {
        counts[2] += measured ? 1 : 0;
        continue;
      }
      long begin = Math.max(now, slotsFree.poll());
      long end = begin + 20 * MS;
      long sinceStall = Math.floorMod(end - start, period);
      if (sinceStall < stallMs * MS) {
        end += stallMs * MS - sinceStall; // it would end in a stall: it ends as the stall does
      }
      slotsFree.add(end);
      running.add(new long[] {end, frames.size()});
      frames.add(frame);
      counts[1] += measured && end - now <= 200 * MS ? 1 : 0;
    }
    return new Got[] {
      new Got(got[0][0], got[0][1], got[0][2]), new Got(got[1][0], got[1][1], got[1][2])
    };
  }

  @Test
  void
      atThreeTimesTheCapacityCriticalRequestsKeepAnsweringThroughStallsAndSheddableOnesAreRefused() {
    // Given an adaptive limit with its defaults, in front of a backend of 8 slots that stalls for
    // 30 ms every half second
    Setup setup =
        new Setup(
            config(
                "limiter.policy.backend.algorithm", "concurrency",
                "limiter.policy.backend.limits", "adaptive"));
    // When it is offered three times what it serves, 10% of it critical
    Got[] got = overload(setup, 30);
    Got critical = got[0];
    Got sheddable = got[1];
    // Then at least 99% of the critical requests are answered within 200 ms
    assertThat(critical.requests()).isGreaterThan(1000);
    assertThat(critical.good()).isGreaterThanOrEqualTo(critical.requests() * 99 / 100);
    // And sheddable requests take at least 90% of the refusals
    assertThat(sheddable.refused())
        .isGreaterThanOrEqualTo((sheddable.refused() + critical.refused()) * 9 / 10);
    // And the backend stays busy: of the 400 a second it serves less 6% stalled, 90% are good
    assertThat(critical.good() + sheddable.good()).isGreaterThan((int) (10 * 400 * 0.94 * 0.9));
  }

  @Test
  void aReserveOfHalfTheDefaultShareFillsInTheStallsAndRefusesCriticalRequests() {
    // Given the same backend and load, with half the share kept for critical requests
    Setup setup =
        new Setup(
            config(
                "limiter.policy.backend.algorithm", "concurrency",
                "limiter.policy.backend.limits", "adaptive",
                "limiter.policy.backend.critical-share", "0.1"));
    Got critical = overload(setup, 30)[0];
    // Then the critical requests that arrive while the backend stalls find the reserve taken: more
    // than 1% of them are refused
    assertThat(critical.refused()).isGreaterThan(critical.requests() / 100);
  }
}
