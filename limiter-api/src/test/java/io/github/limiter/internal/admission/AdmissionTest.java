package io.github.limiter.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ActualCost;
import io.github.limiter.Decision;
import io.github.limiter.KeyResolver;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.RequestView;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.http.ChargedPolicies;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The one admission step, over a plain request view: what both adapters rely on. */
class AdmissionTest {

  /** A request from {@code remote} (null: not an HTTP request) with {@code headers}. */
  record View(String remote, Map<String, String> headers, Set<String> roles)
      implements RequestView {

    View(String remote, Map<String, String> headers) {
      this(remote, headers, Set.of());
    }

    @Override
    public boolean isUserInRole(String role) {
      return roles.contains(role);
    }

    @Override
    public String remoteAddress() {
      return remote;
    }

    @Override
    public String header(String name) {
      return headers.get(name);
    }

    @Override
    public Enumeration<String> headers(String name) {
      String value = headers.get(name);
      return value == null ? null : Collections.enumeration(List.of(value));
    }

    @Override
    public String principal() {
      return null;
    }

    @Override
    public <T> T unwrap(Class<T> type) {
      return null;
    }
  }

  private static final KeyResolver BUGGY =
      new KeyResolver() {
        @Override
        public String name() {
          return "buggy";
        }

        @Override
        public String resolve(RequestView request) {
          throw new IllegalStateException("a resolver bug");
        }
      };

  private final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  private final Limiter limiter = Limiter.of(InMemoryStore.builder().clock(clock).build());
  private final List<RequestFrame> recorded = new ArrayList<>();

  @AfterEach
  void close() {
    limiter.close();
  }

  private static LimiterConfig config(String... pairs) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
      if (pairs[i].endsWith(".limits") && !pairs[i].contains(".plan.")) {
        map.putIfAbsent(pairs[i].replace(".limits", ".algorithm"), "fixed-window");
      }
    }
    return LimiterConfig.from(ConfigLookup.of(map));
  }

  private PolicySet set(Admission admission, LimiterConfig config, String... policies) {
    return set(admission, config, Counting.ALL, policies);
  }

  /** The policies' rules, each counting only the requests {@code counts} says. */
  private PolicySet set(
      Admission admission, LimiterConfig config, Counting counts, String... policies) {
    RuleCompiler compiler = new RuleCompiler(admission, (p, s, n) -> () -> BUGGY);
    List<Rule> rules = new ArrayList<>();
    for (String name : policies) {
      var policy = config.policy(name).orElseThrow();
      rules.add(
          new Rule(
              policy,
              compiler.key(policy),
              policy.permits(),
              compiler.cost(policy),
              counts,
              compiler.plan(policy)));
    }
    return PolicySet.of(rules, limiter::bind);
  }

  private Admission admission(
      LimiterConfig config, boolean keyErrorsMeanNoKey, boolean skipsCharged) {
    return new Admission(
        new ClientAddress(config.http()),
        keyErrorsMeanNoKey,
        skipsCharged,
        (request, outcome) -> recorded.add(outcome),
        AdmissionMetrics.OFF);
  }

  @Test
  void aCostlyRequestDrainsTheQuotaFasterAndABadCostCostsThePermits() {
    // Given 10 a minute per API key, where a request's cost is its X-Cost header, at most 6
    LimiterConfig config =
        config(
            "limiter.policy.llm.limits", "10/m",
            "limiter.policy.llm.key", "header:X-Api-Key",
            "limiter.policy.llm.cost", "header:X-Cost",
            "limiter.policy.llm.max-cost", "6");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, "llm");

    // When one key asks for 4, then for 99 (charged the max, 6)
    RequestFrame four = admission.admit(set, view("k", "4"));
    RequestFrame capped = admission.admit(set, view("k", "99"));

    // Then 10 permits are spent: the next request of 1 is rejected, and says when 1 comes back
    assertThat(four.decision(0).remaining()).isEqualTo(6);
    assertThat(four.cost(0)).isEqualTo(4);
    assertThat(capped.allowed()).isTrue();
    assertThat(capped.cost(0)).isEqualTo(6);
    assertThat(capped.decision(0).remaining()).isZero();
    RequestFrame rejected = admission.admit(set, view("k", "1"));
    assertThat(rejected.allowed()).isFalse();
    assertThat(rejected.rejection().outcome()).isEqualTo(Decision.Outcome.LIMITED);

    // And a malformed, missing or zero cost on another key costs the policy's permits (1)
    for (String bad : new String[] {"lots", null, "0", "-3"}) {
      RequestFrame outcome = admission.admit(set, view("other", bad));
      assertThat(outcome.allowed()).isTrue();
      assertThat(outcome.cost(0)).as("cost %s", bad).isEqualTo(1);
    }
    assertThat(admission.admit(set, view("other", null)).decision(0).remaining()).isEqualTo(5);
  }

  @Test
  void aCostAboveTheCapacityExceedsItAndAFailingCostResolverCostsThePermits() {
    // Given 5 a minute, with costs from a header, and another policy whose cost resolver throws
    LimiterConfig config =
        config(
            "limiter.policy.llm.limits", "5/m",
            "limiter.policy.llm.key", "header:X-Api-Key",
            "limiter.policy.llm.cost", "header:X-Cost",
            "limiter.policy.bulk.limits", "5/m",
            "limiter.policy.bulk.key", "header:X-Api-Key",
            "limiter.policy.bulk.cost", "resolver:buggy",
            "limiter.policy.bulk.permits", "2");
    Admission admission = admission(config, false, false);

    // When a request asks for 6 permits of a 5-permit limit
    RequestFrame tooCostly = admission.admit(set(admission, config, "llm"), view("k", "6"));

    // Then it can never be admitted, and nothing was charged
    assertThat(tooCostly.rejection().outcome()).isEqualTo(Decision.Outcome.EXCEEDS_CAPACITY);
    RequestFrame next = admission.admit(set(admission, config, "llm"), view("k", "5"));
    assertThat(next.allowed()).isTrue();

    // And a cost resolver that throws costs the permits, even where key errors propagate
    RequestFrame bulk = admission.admit(set(admission, config, "bulk"), view("k", "1"));
    assertThat(bulk.allowed()).isTrue();
    assertThat(bulk.cost(0)).isEqualTo(2);
    assertThat(bulk.decision(0).remaining()).isEqualTo(3);
  }

  @Test
  void aRequestThatDoesNotCountGetsItsChargeBackWhenItEnds() {
    // Given 4 a minute per API key, counting only 401s, with costs from a header
    LimiterConfig config =
        config(
            "limiter.policy.login.limits", "4/m",
            "limiter.policy.login.key", "header:X-Api-Key",
            "limiter.policy.login.cost", "header:X-Cost");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, (status, failure) -> status == 401, "login");
    assertThat(set.settles()).isTrue();

    // When a request of 3 ends with a 200, and one of 3 with a 401
    RequestFrame ok = admission.admit(set, view("k", "3"));
    admission.finish(ok, 200, null, null);
    RequestFrame failed = admission.admit(set, view("k", "3"));
    admission.finish(failed, 401, null, null);

    // Then only the failure is charged: 1 left
    assertThat(ok.decision(0).remaining()).isEqualTo(1);
    assertThat(failed.decision(0).remaining()).isEqualTo(1);
    RequestFrame last = admission.admit(set, view("k", "1"));
    assertThat(last.decision(0).remaining()).isZero();
    // and a rejected request has nothing to give back
    RequestFrame rejected = admission.admit(set, view("k", "1"));
    admission.finish(rejected, 200, null, null);
    assertThat(admission.admit(set, view("k", "1")).allowed()).isFalse();
  }

  @Test
  void aPlanFromAHeaderIsBelievedOnlyFromATrustedProxy() {
    // Given 2 a minute by default and 5 on plan pro, the plan from X-Plan, behind a proxy at
    // 10.0.0.1
    LimiterConfig config =
        config(
            "limiter.policy.api.limits", "2/m",
            "limiter.policy.api.key", "header:X-Api-Key",
            "limiter.policy.api.plan.pro.limits", "5/m",
            "limiter.policy.api.plan-source", "header:X-Plan",
            "limiter.http.trusted-proxies", "10.0.0.1/32");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, "api");
    Map<String, String> pro = Map.of("X-Api-Key", "k", "X-Plan", "pro");

    // When a client sends X-Plan: pro itself, and the proxy sends it for another key
    RequestFrame direct = admission.admit(set, new View("192.0.2.7", pro));
    RequestFrame proxied =
        admission.admit(set, new View("10.0.0.1", Map.of("X-Api-Key", "p", "X-Plan", "pro")));

    // Then the client gets the default plan, and the proxied request the pro plan, with its quota
    assertThat(direct.policy(0).name()).isEqualTo("api");
    assertThat(direct.decision(0).remaining()).isEqualTo(1);
    assertThat(proxied.policy(0).name()).isEqualTo("api.plan.pro");
    assertThat(proxied.appliedPolicies()).extracting(Policy::name).containsExactly("api.plan.pro");
    assertThat(proxied.decision(0).limit().permits()).isEqualTo(5);
    assertThat(proxied.decision(0).remaining()).isEqualTo(4);
    // and each plan's state is its own: the pro key still has 4 left after the default's use
    admission.admit(set, new View("192.0.2.7", pro));
    assertThat(admission.admit(set, new View("192.0.2.7", pro)).allowed()).isFalse();
  }

  @Test
  void aPlanFromRolesAndAnUnknownPlanEitherWay() {
    LimiterConfig config =
        config(
            "limiter.policy.api.limits", "1/m",
            "limiter.policy.api.key", "header:X-Api-Key",
            "limiter.policy.api.plan.gold.limits", "9/m",
            "limiter.policy.api.plan.silver.limits", "5/m",
            "limiter.policy.api.plan-source", "role:gold,silver",
            "limiter.policy.strict.limits", "1/m",
            "limiter.policy.strict.key", "header:X-Api-Key",
            "limiter.policy.strict.plan.pro.limits", "5/m",
            "limiter.policy.strict.plan-source", "header:X-Plan",
            "limiter.policy.strict.on-unknown-plan", "reject",
            "limiter.http.trusted-proxies", "10.0.0.1/32");
    Admission admission = admission(config, true, false);
    PolicySet roles = set(admission, config, "api");
    PolicySet strict = set(admission, config, "strict");

    // the first configured role the principal has
    RequestFrame both =
        admission.admit(
            roles, new View("192.0.2.7", Map.of("X-Api-Key", "a"), Set.of("silver", "gold")));
    RequestFrame silver =
        admission.admit(roles, new View("192.0.2.7", Map.of("X-Api-Key", "b"), Set.of("silver")));
    RequestFrame none = admission.admit(roles, new View("192.0.2.7", Map.of("X-Api-Key", "c")));
    assertThat(both.policy(0).name()).isEqualTo("api.plan.gold");
    assertThat(silver.policy(0).name()).isEqualTo("api.plan.silver");
    assertThat(none.policy(0).name()).isEqualTo("api");
    // a request without its key falls back to the address (on-missing-key), and keeps its plan
    RequestFrame keyless = admission.admit(roles, new View("192.0.2.8", Map.of(), Set.of("gold")));
    assertThat(keyless.key(0)).isEqualTo("ip:192.0.2.8");
    assertThat(keyless.policy(0).name()).isEqualTo("api.plan.gold");

    // a plan that is not configured: rejected under on-unknown-plan=reject, else the default
    RequestFrame unknown =
        admission.admit(
            strict, new View("10.0.0.1", Map.of("X-Api-Key", "d", "X-Plan", "platinum")));
    assertThat(unknown.allowed()).isFalse();
    assertThat(unknown.decisions()).isNull();
    RequestFrame fallback =
        admission.admit(roles, new View("192.0.2.7", Map.of("X-Api-Key", "e"), Set.of("bronze")));
    assertThat(fallback.allowed()).isTrue();
    assertThat(fallback.policy(0).name()).isEqualTo("api");
  }

  @Test
  void aConcurrencyPermitIsGivenBackWhenTheRequestEndsHoweverItEnds() {
    // Given at most 2 in flight per API key, a set that has it, and a 5-a-minute policy after it
    LimiterConfig config =
        config(
            "limiter.policy.export.algorithm", "concurrency",
            "limiter.policy.export.limits", "2",
            "limiter.policy.export.key", "header:X-Api-Key",
            "limiter.policy.export.retry-after", "3s",
            "limiter.policy.api.limits", "1/m",
            "limiter.policy.api.key", "header:X-Api-Key");
    Admission admission = admission(config, true, false);
    PolicySet export = set(admission, config, "export");
    PolicySet both = set(admission, config, "export", "api");
    assertThat(export.settles()).isTrue();

    // When two are in flight, a third is refused with the hint as its retry-after
    RequestFrame first = admission.admit(export, view("k", null));
    RequestFrame second = admission.admit(export, view("k", null));
    RequestFrame third = admission.admit(export, view("k", null));
    assertThat(first.allowed()).isTrue();
    assertThat(second.allowed()).isTrue();
    assertThat(third.allowed()).isFalse();
    assertThat(third.rejection().retryAfterNanos()).isEqualTo(Duration.ofSeconds(3).toNanos());

    // And finishing a refused request gives nothing back
    admission.finish(third, 429, null, null);
    assertThat(admission.admit(export, view("k", null)).allowed()).isFalse();

    // When one ends with a failure, and is finished twice (two paths saw it end)
    admission.finish(first, 500, new IllegalStateException("boom"), null);
    admission.finish(first, 200, null, null);

    // Then exactly one permit came back
    RequestFrame again = admission.admit(export, view("k", null));
    assertThat(again.allowed()).isTrue();
    assertThat(admission.admit(export, view("k", null)).allowed()).isFalse();
    admission.finish(second, 200, null, null);
    admission.finish(again, 200, null, null);

    // When a request is admitted by the concurrency policy and rejected by the next, twice
    assertThat(admission.admit(both, view("j", null)).allowed()).isTrue(); // spends api's 1/m
    RequestFrame refused = admission.admit(both, view("j", null));
    RequestFrame refusedAgain = admission.admit(both, view("j", null));

    // Then neither kept a permit: all-or-nothing gave them back, and the one in flight holds one
    assertThat(refused.rejection().policy()).isEqualTo("api");
    assertThat(refusedAgain.rejection().policy()).isEqualTo("api");
    assertThat(admission.admit(export, view("j", null)).allowed()).isTrue();
    assertThat(admission.admit(export, view("j", null)).allowed()).isFalse();
  }

  @Test
  void aConcurrencyPermitIsGivenBackWhateverActualCostTheRequestReported() {
    // Given at most 2 in flight per API key
    LimiterConfig config =
        config(
            "limiter.policy.export.algorithm", "concurrency",
            "limiter.policy.export.limits", "2",
            "limiter.policy.export.key", "header:X-Api-Key");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, "export");

    // When a request reports an actual cost of 2 for the policy, and another one of 1
    RequestFrame first = admission.admit(set, view("k", null));
    admission.finish(first, 200, null, report(r -> r.report("export", 2)));
    RequestFrame second = admission.admit(set, view("k", null));
    admission.finish(second, 200, null, report(r -> r.report("export", 1)));

    // Then each gave back the one permit it took: both permits are free
    assertThat(admission.admit(set, view("k", null)).allowed()).isTrue();
    assertThat(admission.admit(set, view("k", null)).allowed()).isTrue();
    assertThat(admission.admit(set, view("k", null)).allowed()).isFalse();
  }

  @Test
  void aConcurrencyPolicyInDryRunReleasesWhatItAdmittedAndNothingForItsRejections() {
    // Given at most 1 in flight, in dry run
    LimiterConfig config =
        config(
            "limiter.policy.export.algorithm", "concurrency",
            "limiter.policy.export.limits", "1",
            "limiter.policy.export.key", "header:X-Api-Key",
            "limiter.policy.export.dry-run", "true");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, "export");

    // When two run at once, the second a dry-run rejection that passes
    RequestFrame held = admission.admit(set, view("k", null));
    RequestFrame over = admission.admit(set, view("k", null));
    assertThat(over.allowed()).isTrue();
    assertThat(over.dryRunRejection(0)).isNotNull();
    admission.finish(over, 200, null, null);

    // Then the first still holds the permit until it ends
    assertThat(admission.admit(set, view("k", null)).dryRunRejection(0)).isNotNull();
    admission.finish(held, 200, null, null);
    assertThat(admission.admit(set, view("k", null)).dryRunRejection(0)).isNull();
  }

  @Test
  void anActualCostSettlesTheDifferenceAndDebtDelaysTheNextRequestExactly() {
    // Given 100 tokens a minute per API key, reserved from X-Cost; and 10 requests a minute
    LimiterConfig config =
        config(
            "limiter.policy.tokens.limits", "100/m",
            "limiter.policy.tokens.key", "header:X-Api-Key",
            "limiter.policy.tokens.cost", "header:X-Cost",
            "limiter.policy.calls.limits", "10/m",
            "limiter.policy.calls.key", "header:X-Api-Key");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, "tokens", "calls");
    assertThat(set.settles()).isFalse();

    // When a request reserves 50 tokens and reports 20: 30 come back, and the call still counts
    RequestFrame first = admission.admit(set, view("k", "50"));
    assertThat(first.decision(0).remaining()).isEqualTo(50);
    admission.finish(first, 200, null, report(r -> r.report(20)));
    RequestFrame second = admission.admit(set, view("k", "1"));
    assertThat(second.decision(0).remaining()).isEqualTo(79);
    assertThat(second.decision(1).remaining()).isEqualTo(8);

    // When it reports 250 tokens (more than is left): the key owes a window and more
    admission.finish(second, 200, null, report(r -> r.report(250)));
    RequestFrame owing = admission.admit(set, view("k", "1"));
    assertThat(owing.allowed()).isFalse();
    assertThat(owing.policy(owing.rejectedAt()).name()).isEqualTo("tokens");
    // Then the retry-after spans both windows, and is exact: a tick earlier is still refused
    long retry = owing.rejection().retryAfterNanos();
    assertThat(retry).isGreaterThan(Duration.ofMinutes(1).toNanos());
    clock.advance(retry - 1);
    assertThat(admission.admit(set, view("k", "1")).allowed()).isFalse();
    clock.advance(1);
    assertThat(admission.admit(set, view("k", "1")).allowed()).isTrue();

    // And a report naming an uncosted policy settles that one only
    RequestFrame named = admission.admit(set, view("n", "1"));
    admission.finish(named, 200, null, report(r -> r.report("calls", 4)));
    RequestFrame after = admission.admit(set, view("n", "1"));
    assertThat(after.decision(0).remaining()).isEqualTo(98);
    assertThat(after.decision(1).remaining()).isEqualTo(5);
  }

  @Test
  void aRequestThatDoesNotCountIsRefundedWholeWhateverItReported() {
    LimiterConfig config =
        config(
            "limiter.policy.llm.limits", "100/m",
            "limiter.policy.llm.key", "header:X-Api-Key",
            "limiter.policy.llm.cost", "header:X-Cost");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, (status, failure) -> status < 500, "llm");
    RequestFrame failed = admission.admit(set, view("k", "40"));
    admission.finish(failed, 503, null, report(r -> r.report(90)));
    assertThat(admission.admit(set, view("k", "1")).decision(0).remaining()).isEqualTo(99);
  }

  @Test
  void actualCostIsFoundOnlyInsideALimitedRequestAndChecksItsInput() {
    // Outside a request, reports go nowhere
    assertThat(ActualCost.current().isActive()).isFalse();
    ActualCost.current().report(5);
    assertThatThrownBy(() -> ActualCost.current().report(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 0, was -1");
    // Inside, one report per request, shared by a nested scope (the filter around @Limited)
    CostReport.enter();
    ActualCost handle = ActualCost.current();
    assertThat(handle.isActive()).isTrue();
    CostReport.enter();
    assertThat(ActualCost.current()).isSameAs(handle);
    assertThatThrownBy(() -> handle.report(" ", 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a policy name is required");
    assertThat(CostReport.exit()).isSameAs(handle);
    assertThat(CostReport.exit()).isSameAs(handle);
    assertThat(ActualCost.current().isActive()).isFalse();
    // A request that never asks for its handle makes no report
    CostReport.enter();
    assertThat(CostReport.exit()).isNull();
  }

  /** What a request reported while it ran. */
  private static CostReport report(java.util.function.Consumer<ActualCost> reporting) {
    CostReport.enter();
    CostReport report;
    try {
      reporting.accept(ActualCost.current());
    } finally {
      report = CostReport.exit();
    }
    return report;
  }

  private static View view(String apiKey, String cost) {
    Map<String, String> headers = new HashMap<>();
    headers.put("X-Api-Key", apiKey);
    if (cost != null) {
      headers.put("X-Cost", cost);
    }
    return new View("192.0.2.7", headers);
  }

  @Test
  void aMissingKeyUnderRejectRejectsBeforeAnythingIsCharged() {
    // Given a per-address policy and a per-API-key policy that rejects requests without the header
    LimiterConfig config =
        config(
            "limiter.policy.ip.limits", "2/m",
            "limiter.policy.api.limits", "10/m",
            "limiter.policy.api.key", "header:X-Api-Key",
            "limiter.policy.api.on-missing-key", "reject");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, "ip", "api");

    // When a request comes without the header, twice
    RequestFrame first = admission.admit(set, new View("192.0.2.7", Map.of()));
    admission.admit(set, new View("192.0.2.7", Map.of()));

    // Then both are rejected as missing a key, and the address policy was never charged
    assertThat(first.allowed()).isFalse();
    assertThat(first.rejectedAt()).isEqualTo(1);
    assertThat(first.rejection().outcome()).isEqualTo(Decision.Outcome.MISSING_KEY);
    assertThat(first.decisions()).isNull();
    RequestFrame keyed = admission.admit(set, new View("192.0.2.7", Map.of("X-Api-Key", "k1")));
    assertThat(keyed.allowed()).isTrue();
    assertThat(keyed.decision(0).remaining()).isEqualTo(1);
    assertThat(keyed.key(0)).isEqualTo("ip:192.0.2.7");
    assertThat(keyed.key(1)).isEqualTo("h:k1");
    assertThat(recorded).hasSize(3).startsWith(first);
  }

  @Test
  void dryRunRejectionsAreSetApartAndTheTightestAdmissionAndLongestWaitAreFound() {
    LimiterConfig config =
        config(
            "limiter.policy.trial.limits", "1/m",
            "limiter.policy.trial.dry-run", "true",
            "limiter.policy.wide.limits", "100/m",
            "limiter.policy.narrow.limits", "3/m",
            "limiter.policy.shaped.algorithm", "leaky-bucket",
            "limiter.policy.shaped.limits", "1/s burst=5");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, "trial", "wide", "narrow", "shaped");
    View request = new View("192.0.2.7", Map.of());

    admission.admit(set, request);
    RequestFrame second = admission.admit(set, request);

    assertThat(second.allowed()).isTrue();
    assertThat(second.dryRunRejection(0))
        .isNotNull()
        .extracting(Decision::isAllowed)
        .isEqualTo(false);
    assertThat(second.tightest()).isEqualTo(2); // narrow: 1 left, shaped: 3 left, wide: 98 left
    // the second of a leaky bucket at 1/s departs a second after the first
    assertThat(second.waitNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
    assertThat(second.charged()).containsExactly("trial", "wide", "narrow", "shaped");
  }

  @Test
  void anEnforcedRejectionRefundsAndWaitsForNothing() {
    LimiterConfig config =
        config(
            "limiter.policy.shaped.algorithm", "leaky-bucket",
            "limiter.policy.shaped.limits", "1/s burst=5",
            "limiter.policy.one.limits", "1/m");
    Admission admission = admission(config, true, false);
    PolicySet set = set(admission, config, "shaped", "one");
    View request = new View("192.0.2.7", Map.of());

    admission.admit(set, request);
    RequestFrame rejected = admission.admit(set, request);

    assertThat(rejected.allowed()).isFalse();
    assertThat(rejected.rejectedAt()).isEqualTo(1);
    assertThat(rejected.waitNanos()).isZero();
    assertThat(rejected.tightest()).isZero();
    // the leaky bucket's permit came back: the next admission waits one interval, not two
    clock.advance(Duration.ofMinutes(1));
    assertThat(admission.admit(set, request).waitNanos()).isZero();
  }

  @Test
  void keyErrorsAreNoKeyOrPropagateAsTheAdapterChooses() {
    LimiterConfig config =
        config(
            "limiter.policy.p.limits", "1/m",
            "limiter.policy.p.key", "resolver:buggy",
            "limiter.policy.p.on-missing-key", "allow");
    View request = new View("192.0.2.7", Map.of());

    Admission filter = admission(config, true, false);
    RequestFrame passed = filter.admit(set(filter, config, "p"), request);
    assertThat(passed.allowed()).isTrue();
    assertThat(passed.decision(0)).isNull();
    assertThat(passed.charged()).isEmpty();

    Admission interceptor = admission(config, false, false);
    assertThatThrownBy(() -> interceptor.admit(set(interceptor, config, "p"), request))
        .hasMessage("a resolver bug");
  }

  @Test
  void webSourcesOutsideAnHttpRequestAreTheConstantKeyAndChargedPoliciesAreSkipped() {
    LimiterConfig config =
        config(
            "limiter.policy.p.limits", "1/m",
            "limiter.policy.p.key", "header:X-Api-Key");
    Admission interceptor = admission(config, false, true);
    PolicySet set = set(interceptor, config, "p");

    assertThat(interceptor.admit(set, new View(null, Map.of())).key(0)).isEqualTo("c:global");
    try (ChargedPolicies.Scope scope = ChargedPolicies.open(List.of("p"))) {
      RequestFrame skipped = interceptor.admit(set, new View(null, Map.of()));
      assertThat(skipped.allowed()).isTrue();
      assertThat(skipped.decision(0)).isNull();
    }
  }
}
