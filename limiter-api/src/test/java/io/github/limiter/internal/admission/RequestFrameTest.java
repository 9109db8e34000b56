package io.github.limiter.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.ActualCost;
import io.github.limiter.Limiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.http.ChargedPolicies;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.render.ResponseRenderer;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The handle of one admitted request: what it owns while entered, and how it ends. */
class RequestFrameTest {

  private final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  private final Limiter limiter = Limiter.of(InMemoryStore.builder().clock(clock).build());
  private final LimiterConfig config =
      LimiterConfig.from(
          ConfigLookup.of(
              Map.of(
                  "limiter.policy.llm.algorithm", "fixed-window",
                  "limiter.policy.llm.limits", "100/m",
                  "limiter.policy.llm.key", "header:X-Api-Key",
                  "limiter.policy.llm.cost", "header:X-Cost",
                  "limiter.policy.export.algorithm", "concurrency",
                  "limiter.policy.export.limits", "1",
                  "limiter.policy.export.key", "header:X-Api-Key")));

  @AfterEach
  void close() {
    limiter.close();
  }

  /** The filter's admission (outer) or the interceptor's (inner, rendering for its enclosing). */
  private Admission admission(boolean inner) {
    return new Admission(
        new ClientAddress(config.http()),
        !inner,
        inner,
        AdmissionObserver.NONE,
        AdmissionMetrics.OFF,
        inner ? new ResponseRenderer(config.http())::headers : null);
  }

  private PolicySet set(Admission admission, String... policies) {
    RuleCompiler compiler =
        new RuleCompiler(
            admission,
            (policy, setting, name) -> {
              throw new AssertionError("no resolver is named here");
            });
    List<Rule> rules = new ArrayList<>();
    for (String name : policies) {
      rules.add(compiler.compile(config.policy(name).orElseThrow()));
    }
    return PolicySet.of(rules, limiter::bind);
  }

  private static AdmissionTest.View view(String key, String cost) {
    return new AdmissionTest.View(
        "192.0.2.7",
        cost == null ? Map.of("X-Api-Key", key) : Map.of("X-Api-Key", key, "X-Cost", cost));
  }

  @Test
  void anOuterFrameMarksItsPoliciesChargedOnlyWhileEnteredAndAnInnerOneDoesNot() {
    Admission filter = admission(false);
    RequestFrame outer = filter.admit(set(filter, "llm"), view("k", "1"));
    Admission interceptor = admission(true);
    RequestFrame inner = interceptor.admit(set(interceptor, "export"), view("k", null));

    outer.enter();
    assertThat(ChargedPolicies.contains("llm")).isTrue();
    inner.enter();
    assertThat(ChargedPolicies.contains("export")).isFalse();
    inner.exit();
    outer.exit();

    assertThat(ChargedPolicies.contains("llm")).isFalse();
  }

  @Test
  void anOuterFrameWhoseRequestCarriesItsChargesMarksNothingOnItsThread() {
    // Given a filter's frame whose adapter hands what it charged over with the request
    Admission filter = admission(false);
    RequestFrame outer = filter.admit(set(filter, "llm"), view("k", "1"));
    outer.enter(false);
    assertThat(ChargedPolicies.contains("llm")).isFalse();
    assertThat(ActualCost.current().isActive()).isTrue();

    // Then an inner admission given those charges leaves the policy out, on any thread, and one
    // not given them counts it
    Admission interceptor = admission(true);
    PolicySet llm = set(interceptor, "llm");
    RequestFrame skipped = interceptor.admit(llm, view("k", "1"), outer.charged());
    assertThat(skipped.allowed()).isTrue();
    assertThat(skipped.decision(0)).isNull();
    assertThat(interceptor.admit(llm, view("k", "1")).decision(0).remaining()).isEqualTo(98);
    outer.exit();
    assertThat(ActualCost.current().isActive()).isFalse();
  }

  @Test
  void whatTheRequestReportsWhileEnteredIsSettledWhenItEndsOnceOnly() {
    // Given a request that reserved 50 tokens
    Admission filter = admission(false);
    PolicySet set = set(filter, "llm");
    RequestFrame frame = filter.admit(set, view("k", "50"));
    assertThat(frame.settles()).isFalse();

    // When it reports 20 while it runs, and is ended twice (two paths saw it end)
    frame.enter();
    ActualCost.current().report(20);
    frame.exit();
    assertThat(frame.settles()).isTrue();
    frame.end(200, null);
    frame.end(200, null);

    // Then 30 came back once: 80 left before the next request's 1
    assertThat(filter.admit(set, view("k", "1")).decision(0).remaining()).isEqualTo(79);
    assertThat(ActualCost.current().isActive()).isFalse();
  }

  @Test
  void endingGivesAConcurrencyPermitBackAndARejectedFrameEndsWithoutEffect() {
    Admission interceptor = admission(true);
    PolicySet set = set(interceptor, "export");
    RequestFrame held = interceptor.admit(set, view("k", null));
    assertThat(held.settles()).isTrue();
    RequestFrame refused = interceptor.admit(set, view("k", null));
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.settles()).isFalse();

    refused.end(429, null);
    assertThat(interceptor.admit(set, view("k", null)).allowed()).isFalse();
    held.end(-1, new IllegalStateException("boom"));
    assertThat(interceptor.admit(set, view("k", null)).allowed()).isTrue();
  }

  @Test
  void anInnerFrameLeavesItsTightestAdmissionToTheEnclosingRequestOnly() {
    Admission interceptor = admission(true);
    PolicySet set = set(interceptor, "llm");
    List<String> headers = new ArrayList<>();
    try (RequestFrame.Enclosing enclosing = RequestFrame.openEnclosing()) {
      RequestFrame wide = interceptor.admit(set, view("a", "1"));
      RequestFrame tight = interceptor.admit(set, view("b", "60"));
      wide.enter();
      wide.exit();
      tight.enter();
      tight.exit();
      enclosing.headers((name, value) -> headers.add(name + ": " + value));
    }
    assertThat(headers).contains("RateLimit: \"llm\";r=40;t=60");

    // An outer frame leaves nothing, and nothing is kept without an enclosing request
    Admission filter = admission(false);
    try (RequestFrame.Enclosing enclosing = RequestFrame.openEnclosing()) {
      RequestFrame outer = filter.admit(set(filter, "llm"), view("c", "1"));
      outer.enter();
      outer.exit();
      assertThat(enclosing.isEmpty()).isTrue();
    }
    RequestFrame alone = interceptor.admit(set, view("d", "1"));
    alone.enter();
    alone.exit();
    try (RequestFrame.Enclosing enclosing = RequestFrame.openEnclosing()) {
      assertThat(enclosing.isEmpty()).isTrue();
    }
  }

  @Test
  void passingAnAdmittedFrameAllocatesNothingBeyondTheFrame() {
    Admission filter = admission(false);
    RequestFrame frame = filter.admit(set(filter, "llm"), view("k", "1"));

    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    int calls = 200_000;
    for (int i = 0; i < calls; i++) {
      frame.enter(); // warm up: let the JIT compile what it will
      frame.exit();
    }
    // The least over several rounds: code not compiled yet allocates what escape analysis removes.
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 10 && least > 0; round++) {
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < calls; i++) {
        frame.enter();
        frame.exit();
      }
      least = Math.min(least, (threads.getCurrentThreadAllocatedBytes() - before) / calls);
    }

    assertThat(least).as("bytes per enter and exit").isZero();
  }
}
