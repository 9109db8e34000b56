package io.github.limiter.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.internal.metrics.StoreGauges;
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
 * What the admission step reports to a metrics recorder: once per policy, with the right outcome.
 */
class AdmissionMetricsTest {

  /** Writes each call down, as a backend would count it. */
  static class Calls implements Recorder {
    final List<String> calls = new ArrayList<>();
    final List<Long> storeNanos = new ArrayList<>();

    @Override
    public void decision(String policy, Verdict outcome, boolean verified) {
      calls.add("decision " + policy + " " + outcome.tag() + (verified ? "" : " unverified"));
    }

    @Override
    public void nearLimit(String policy) {
      calls.add("near-limit " + policy);
    }

    @Override
    public void shapingDelay(String policy, long nanos) {
      calls.add("shaping " + policy + (nanos > 0 ? "" : " without a wait"));
    }

    @Override
    public void storeDuration(String store, long nanos) {
      storeNanos.add(nanos);
      calls.add("store " + store);
    }

    @Override
    public void watch(StoreGauges store) {}
  }

  private final ManualClock clock = ManualClock.at(ManualClock.NEAR_MAX);
  private final Limiter limiter = Limiter.of(InMemoryStore.builder().clock(clock).build());
  private final Calls recorder = new Calls();

  @AfterEach
  void close() {
    limiter.close();
  }

  private static LimiterConfig config(String... pairs) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return LimiterConfig.from(ConfigLookup.of(map));
  }

  /** The step, its metrics tagged as deciding on a store that leaves the JVM, so it is timed. */
  private Admission admission(LimiterConfig config) {
    return admission(config, "redis");
  }

  private Admission admission(LimiterConfig config, String store) {
    return new Admission(
        new ClientAddress(config.http()),
        true,
        false,
        AdmissionObserver.NONE,
        AdmissionMetrics.of(recorder, store, new NearLimit(config.events().nearLimit())));
  }

  private PolicySet set(Admission admission, LimiterConfig config, String... policies) {
    List<Rule> rules = new ArrayList<>();
    for (String name : policies) {
      var policy = config.policy(name).orElseThrow();
      rules.add(
          new Rule(
              policy,
              new RuleCompiler(admission, (p, s, n) -> () -> null).key(policy),
              policy.permits()));
    }
    return PolicySet.of(rules, limiter::bind);
  }

  @Test
  void aBackendThatFailsNeverFailsTheRequest() {
    // Given a backend compiled against another version of its library than the server's
    Recorder broken =
        new Calls() {
          @Override
          public void decision(String policy, Verdict outcome, boolean verified) {
            throw new NoSuchMethodError("MeterRegistry.counter(String, Tags)");
          }
        };
    LimiterConfig config =
        config("limiter.policy.api.limits", "1/m", "limiter.policy.api.algorithm", "fixed-window");
    Admission admission =
        new Admission(
            new ClientAddress(config.http()),
            true,
            false,
            AdmissionObserver.NONE,
            AdmissionMetrics.of(broken, "memory", new NearLimit(0)));
    PolicySet set = set(admission, config, "api");

    // When a client sends two requests, then the limit decides them as without metrics
    var view = new AdmissionTest.View("192.0.2.7", Map.of());
    assertThat(admission.admit(set, view).allowed()).isTrue();
    assertThat(admission.admit(set, view).allowed()).isFalse();
  }

  @Test
  void eachPolicyDecisionIsCountedWithItsOutcomeAndTheStoreTimeOnce() {
    // Given an enforced policy of 4 a minute and a dry-run one of 1 a minute, near-limit at a
    // quarter
    LimiterConfig config =
        config(
            "limiter.policy.api.limits", "4/m",
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.trial.limits", "1/m",
            "limiter.policy.trial.algorithm", "fixed-window",
            "limiter.policy.trial.dry-run", "true",
            "limiter.events.near-limit", "0.25");
    Admission admission = admission(config);
    PolicySet set = set(admission, config, "api", "trial");

    // When one client sends five requests
    for (int i = 0; i < 5; i++) {
      admission.admit(set, new AdmissionTest.View("192.0.2.7", Map.of()));
    }

    // Then each request times the store once, and each policy's decision is counted; an admission
    // that leaves at most a quarter of the quota is near the limit
    assertThat(recorder.calls)
        .containsExactly(
            "store redis",
            "decision api admitted",
            "decision trial admitted",
            "near-limit trial",
            "store redis",
            "decision api admitted",
            "decision trial dry-run-rejected",
            "store redis",
            "decision api admitted",
            "near-limit api",
            "decision trial dry-run-rejected",
            "store redis",
            "decision api admitted",
            "near-limit api",
            "decision trial dry-run-rejected",
            // the enforced rejection stops the request before the dry-run policy is asked
            "store redis",
            "decision api rejected");
    assertThat(recorder.storeNanos).allMatch(nanos -> nanos >= 0);
  }

  @Test
  void aMissingKeyRejectionIsCountedWithoutTimingTheStore() {
    LimiterConfig config =
        config(
            "limiter.policy.api.limits", "10/m",
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.key", "header:X-Api-Key",
            "limiter.policy.api.on-missing-key", "reject");
    Admission admission = admission(config);

    admission.admit(set(admission, config, "api"), new AdmissionTest.View("192.0.2.7", Map.of()));

    assertThat(recorder.calls).containsExactly("decision api rejected");
  }

  @Test
  void theInMemoryStoreIsNotTimedButItsDecisionsAreCounted() {
    LimiterConfig config =
        config("limiter.policy.api.limits", "1/m", "limiter.policy.api.algorithm", "fixed-window");
    Admission admission = admission(config, "memory");
    PolicySet set = set(admission, config, "api");

    admission.admit(set, new AdmissionTest.View("192.0.2.7", Map.of()));
    admission.admit(set, new AdmissionTest.View("192.0.2.7", Map.of()));

    assertThat(recorder.calls)
        .containsExactly("decision api admitted", "near-limit api", "decision api rejected");
    assertThat(AdmissionMetrics.of(recorder, "memory", new NearLimit(0.1)).timesStore()).isFalse();
    assertThat(AdmissionMetrics.of(recorder, "redis", new NearLimit(0.1)).timesStore()).isTrue();
    assertThat(AdmissionMetrics.OFF.timesStore()).isFalse();
  }

  @Test
  void noBackendMeansMetricsOff() {
    assertThat(AdmissionMetrics.of(Recorder.NOOP, "memory", new NearLimit(0.1)))
        .isSameAs(AdmissionMetrics.OFF);
    assertThat(AdmissionMetrics.OFF.on()).isFalse();
    assertThat(AdmissionMetrics.of(recorder, "memory", new NearLimit(0.1)).on()).isTrue();
  }
}
