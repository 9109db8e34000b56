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
}
