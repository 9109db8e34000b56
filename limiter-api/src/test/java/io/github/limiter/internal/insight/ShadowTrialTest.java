package io.github.limiter.internal.insight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.KeyResolver;
import io.github.limiter.Limit;
import io.github.limiter.Limiter;
import io.github.limiter.Policy;
import io.github.limiter.RequestView;
import io.github.limiter.internal.admission.Admission;
import io.github.limiter.internal.admission.AdmissionMetrics;
import io.github.limiter.internal.admission.AdmissionObserver;
import io.github.limiter.internal.admission.PolicySet;
import io.github.limiter.internal.admission.RequestFrame;
import io.github.limiter.internal.admission.Rule;
import io.github.limiter.internal.admission.RuleCompiler;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.config.TopKeysSettings;
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
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Shadow trials through the admission step: the candidate's would-be rejections match what applying
 * it does on the same traffic, the real state is never charged, and a trial ends.
 */
class ShadowTrialTest {

  private static final long ORIGIN = ManualClock.NEAR_MAX - Duration.ofHours(2).toNanos();

  /** A request of one client key, from {@code 192.0.2.1}, sent at a time of the trace. */
  record Sent(long atNanos, String key) {}

  /** The one request view of the trace: the key in the X-Key header. */
  record View(String key) implements RequestView {
    @Override
    public boolean isUserInRole(String role) {
      return false;
    }

    @Override
    public String remoteAddress() {
      return "192.0.2.1";
    }

    @Override
    public String header(String name) {
      return "X-Key".equalsIgnoreCase(name) ? key : null;
    }

    @Override
    public Enumeration<String> headers(String name) {
      String value = header(name);
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

  /** One runtime over the in-memory store on a manual clock: its config, admission and limiter. */
  static final class Runtime {
    final ManualClock clock = ManualClock.at(ORIGIN);
    final Limiter limiter = Limiter.of(InMemoryStore.builder().clock(clock).build());
    final Insight insight;
    final Admission admission;
    final LimiterConfig config;
    final PolicySet set;

    Runtime(Map<String, String> properties, String... policies) {
      config = LimiterConfig.from(ConfigLookup.of(properties));
      insight = new Insight(config.topKeys(), clock);
      admission =
          new Admission(
              new ClientAddress(config.http()),
              true,
              false,
              AdmissionObserver.NONE,
              AdmissionMetrics.OFF,
              null,
              insight);
      List<Rule> rules = new ArrayList<>();
      for (String name : policies) {
        PolicyConfig policy = config.policy(name).orElseThrow();
        rules.add(
            new Rule(
                policy,
                new RuleCompiler(admission, (p, s, n) -> () -> (KeyResolver) null).key(policy),
                policy.permits()));
      }
      set = PolicySet.of(rules, limiter::bind);
    }

    Policy policy(String name) {
      return config.policy(name).orElseThrow().policy();
    }

    /** Sends the trace; answers the rejections, per policy that rejected. */
    Map<String, Integer> send(List<Sent> trace) {
      Map<String, Integer> rejections = new HashMap<>();
      for (Sent sent : trace) {
        clock.set(ORIGIN + sent.atNanos());
        RequestFrame frame = admission.admit(set, new View(sent.key()));
        if (!frame.allowed()) {
          rejections.merge(frame.rule(frame.rejectedAt()).name(), 1, Integer::sum);
        }
      }
      return rejections;
    }
  }

  private static Map<String, String> policy(String algorithm, String limits) {
    Map<String, String> properties = new HashMap<>();
    properties.put("limiter.policy.api.algorithm", algorithm);
    properties.put("limiter.policy.api.limits", limits);
    properties.put("limiter.policy.api.key", "header:X-Key");
    return properties;
  }

  /**
   * A seeded trace of {@code n} requests over 40 keys, a few of them heavy, in bursts and lulls: 1
   * to 30 ms apart, with a pause of up to 3 s now and then.
   */
  static List<Sent> trace(long seed, int n) {
    Random random = new Random(seed);
    List<Sent> trace = new ArrayList<>();
    long at = 0;
    for (int i = 0; i < n; i++) {
      at += Duration.ofMillis(1 + random.nextInt(30)).toNanos();
      if (random.nextInt(200) == 0) {
        at += Duration.ofMillis(random.nextInt(3000)).toNanos();
      }
      int k = random.nextInt(10) < 6 ? random.nextInt(3) : 3 + random.nextInt(37);
      trace.add(new Sent(at, "client-" + k));
    }
    return trace;
  }

  @ParameterizedTest(name = "{0}: {1} tried as {2}")
  @CsvSource(
      delimiter = ';',
      value = {
        "fixed-window; 20/s; 8/s",
        "sliding-window-counter; 20/s, 300/m; 8/s, 200/m",
        "sliding-window-log; 20/s; 8/s",
        "token-bucket; 20/s burst=40; 8/s burst=12",
        "leaky-bucket; 20/s burst=40; 8/s burst=12"
      })
  void aTrialOfATighterLimitReportsTheRejectionsApplyingItMakes(
      String algorithm, String current, String candidate) {
    List<Sent> trace = trace(2026, 20_000);

    // Given the current limits deciding, and the tighter candidate tried in shadow
    Runtime trying = new Runtime(policy(algorithm, current), "api");
    ShadowTrial trial =
        trying
            .insight
            .trials()
            .start(trying.policy("api"), Limit.parseAll(candidate), Duration.ofHours(1));

    // When the trace is sent
    Map<String, Integer> realRejections = trying.send(trace);
    TrialView shown = trial.view();

    // And the same trace is sent where the candidate is applied
    Runtime applied = new Runtime(policy(algorithm, candidate), "api");
    int appliedRejections = applied.send(trace).getOrDefault("api", 0);

    // Then the trial's would-be rejections match the applied limits' within 1%
    assertThat(shown.requests()).isEqualTo(trace.size());
    assertThat(shown.rejected()).isEqualTo((long) realRejections.getOrDefault("api", 0));
    assertThat((long) appliedRejections).isGreaterThan(shown.rejected());
    assertThat((double) shown.wouldReject())
        .isCloseTo(appliedRejections, org.assertj.core.data.Percentage.withPercentage(1));
    // And the keys it would have rejected the most are the heavy ones
    assertThat(shown.wouldRejectKeys().subList(0, 3))
        .extracting(KeyCount::key)
        .containsExactlyInAnyOrder("h:client-0", "h:client-1", "h:client-2");
    assertThat(shown.state()).isEqualTo(ShadowTrial.State.RUNNING);
    assertThat(shown.candidate()).isEqualTo(Limit.parseAll(candidate));
  }

  @Test
  void aTrialNeverChargesTheRealState() {
    List<Sent> trace = trace(7, 5_000);
    Map<String, String> config = policy("token-bucket", "10/s burst=20");

    // Given the same runtime with a trial of a much tighter limit, and without
    Runtime trying = new Runtime(config, "api");
    trying.insight.trials().start(trying.policy("api"), Limit.parseAll("1/s"), Duration.ofHours(1));
    Runtime plain = new Runtime(config, "api");

    // Then the real decisions are the same, request for request
    for (Sent sent : trace) {
      trying.clock.set(ORIGIN + sent.atNanos());
      plain.clock.set(ORIGIN + sent.atNanos());
      RequestFrame tried = trying.admission.admit(trying.set, new View(sent.key()));
      RequestFrame reference = plain.admission.admit(plain.set, new View(sent.key()));
      assertThat(tried.allowed()).isEqualTo(reference.allowed());
      assertThat(tried.decision(0).remaining()).isEqualTo(reference.decision(0).remaining());
    }
    assertThat(trying.insight.trials().views().get(0).wouldReject()).isPositive();
  }

  @Test
  void aRequestAnotherPolicyRejectsChargesTheCandidateNothing() {
    // Given api (tried at 2/m) and a stricter global policy, all-or-nothing
    Map<String, String> properties = policy("fixed-window", "100/m");
    properties.put("limiter.policy.global.algorithm", "fixed-window");
    properties.put("limiter.policy.global.limits", "1/m");
    properties.put("limiter.policy.global.key", "constant");
    Runtime runtime = new Runtime(properties, "api", "global");
    runtime
        .insight
        .trials()
        .start(runtime.policy("api"), Limit.parseAll("2/m"), Duration.ofHours(1));

    // When one key sends 3 requests: global admits the first only
    Map<String, Integer> rejections =
        runtime.send(List.of(new Sent(1, "k"), new Sent(2, "k"), new Sent(3, "k")));

    // Then the candidate was charged for the admitted request only: it would reject none
    assertThat(rejections).containsExactly(Map.entry("global", 2));
    TrialView view = runtime.insight.trials().views().get(0);
    assertThat(view.requests()).isEqualTo(3);
    assertThat(view.wouldReject()).isZero();
  }

  @Test
  void aTrialEndsAfterItsPeriodAndKeepsWhatItShowed() {
    Runtime runtime = new Runtime(policy("fixed-window", "100/m"), "api");
    ShadowTrials trials = runtime.insight.trials();
    trials.start(runtime.policy("api"), Limit.parseAll("1/m"), Duration.ofMinutes(10));
    assertThat(trials.views().get(0).remaining()).isEqualTo(Duration.ofMinutes(10));
    runtime.send(List.of(new Sent(0, "k"), new Sent(1, "k")));
    assertThat(trials.views().get(0).remaining()).isEqualTo(Duration.ofMinutes(10).minusNanos(1));

    // When its period passes, then it counts no more, and shows what it counted
    long end = Duration.ofMinutes(10).toNanos();
    runtime.send(List.of(new Sent(end, "k"), new Sent(end + 1, "k")));
    TrialView view = trials.views().get(0);
    assertThat(view.state()).isEqualTo(ShadowTrial.State.ENDED);
    assertThat(view.requests()).isEqualTo(2);
    assertThat(view.wouldReject()).isEqualTo(1);
    assertThat(view.elapsed()).isEqualTo(Duration.ofMinutes(10));
    assertThat(view.remaining()).isZero();
    assertThat(runtime.insight.trials().any()).isFalse();

    // And a new trial of the policy may start
    trials.start(runtime.policy("api"), Limit.parseAll("50/m"), Duration.ofMinutes(1));
    assertThat(trials.views())
        .singleElement()
        .extracting(TrialView::state)
        .isEqualTo(ShadowTrial.State.RUNNING);
  }

  @Test
  void applyingEndsTheTrialAndAnswersTheCandidatePolicy() {
    Runtime runtime = new Runtime(policy("token-bucket", "10/s burst=20"), "api");
    ShadowTrials trials = runtime.insight.trials();
    trials.start(runtime.policy("api"), Limit.parseAll("5/s burst=10"), Duration.ofHours(1));

    Policy candidate = trials.apply("api").orElseThrow();

    assertThat(candidate.name()).isEqualTo("api");
    assertThat(candidate.limits()).isEqualTo(Limit.parseAll("5/s burst=10"));
    assertThat(candidate.algorithm()).isEqualTo(runtime.policy("api").algorithm());
    assertThat(trials.trial("api").orElseThrow().state()).isEqualTo(ShadowTrial.State.APPLIED);
    assertThat(trials.apply("api")).as("applied once").isEmpty();
    runtime.send(List.of(new Sent(0, "k")));
    assertThat(trials.views().get(0).requests()).isZero();
  }

  @Test
  void discardingForgetsTheTrial() {
    Runtime runtime = new Runtime(policy("fixed-window", "100/m"), "api");
    ShadowTrials trials = runtime.insight.trials();
    ShadowTrial trial =
        trials.start(runtime.policy("api"), Limit.parseAll("1/m"), Duration.ofHours(1));

    assertThat(trials.discard("api")).isTrue();

    assertThat(trial.state()).isEqualTo(ShadowTrial.State.DISCARDED);
    assertThat(trials.views()).isEmpty();
    assertThat(trials.discard("api")).isFalse();
    assertThat(runtime.insight.trials().any()).isFalse();
  }

  @Test
  void aSecondTrialOfARunningOneIsRefused() {
    Runtime runtime = new Runtime(policy("fixed-window", "100/m"), "api");
    ShadowTrials trials = runtime.insight.trials();
    trials.start(runtime.policy("api"), Limit.parseAll("1/m"), Duration.ofHours(1));

    assertThatThrownBy(
            () -> trials.start(runtime.policy("api"), Limit.parseAll("2/m"), Duration.ofHours(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'api'")
        .hasMessageContaining("apply or discard it first");
  }

  @Test
  void badCandidatesAreRefusedNamingWhatIsWrong() {
    ShadowTrials trials = new ShadowTrials(ManualClock.at(ORIGIN));
    Policy window = Policy.fixedWindow("api", Limit.parse("10/s"));

    assertThatThrownBy(
            () -> trials.start(window, Limit.parseAll("10/s burst=20"), Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("burst=20");
    assertThatThrownBy(() -> trials.start(window, Limit.parseAll("5/s"), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("above 0 and at most 7 days, was PT0S");
    assertThatThrownBy(() -> trials.start(window, Limit.parseAll("5/s"), Duration.ofDays(8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was PT192H");
    assertThatThrownBy(
            () ->
                trials.start(
                    Policy.concurrency("jobs", 10, Duration.ofSeconds(1)),
                    Limit.parseAll("5/s"),
                    Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("concurrency");
    assertThat(trials.views()).isEmpty();
  }

  @Test
  void topKeysCountThroughTheAdmissionStepWhenEnabled() {
    // Given top keys on, and a limit of 2 a minute
    Map<String, String> properties = policy("fixed-window", "2/m");
    properties.put("limiter.top-keys.enabled", "true");
    Runtime runtime = new Runtime(properties, "api");

    // When one key sends 5 requests and another 1
    runtime.send(
        List.of(
            new Sent(1, "busy"),
            new Sent(2, "busy"),
            new Sent(3, "busy"),
            new Sent(4, "busy"),
            new Sent(5, "busy"),
            new Sent(6, "quiet")));

    // Then the busy key leads, with its 3 rejections
    TopKeysView view = runtime.insight.topKeys().orElseThrow().view("api");
    assertThat(view.byRequests())
        .containsExactly(new KeyCount("h:busy", 5, 0), new KeyCount("h:quiet", 1, 0));
    assertThat(view.byRejections()).containsExactly(new KeyCount("h:busy", 3, 0));
  }

  @Test
  void topKeysCountADryRunPolicysWouldBeRejectionsAndNotARequestAnEarlierPolicyRejected() {
    // Given a dry-run policy of 1 a minute, then an enforced one of 2 a minute, top keys on
    Map<String, String> properties = policy("fixed-window", "1/m");
    properties.put("limiter.policy.api.dry-run", "true");
    properties.put("limiter.policy.strict.algorithm", "fixed-window");
    properties.put("limiter.policy.strict.limits", "2/m");
    properties.put("limiter.policy.strict.key", "header:X-Key");
    properties.put("limiter.policy.late.algorithm", "fixed-window");
    properties.put("limiter.policy.late.limits", "100/m");
    properties.put("limiter.policy.late.key", "header:X-Key");
    properties.put("limiter.top-keys.enabled", "true");
    Runtime runtime = new Runtime(properties, "api", "strict", "late");

    // When one key sends 3 requests: all pass api (dry run), strict rejects the third
    runtime.send(List.of(new Sent(1, "k"), new Sent(2, "k"), new Sent(3, "k")));

    // Then api counts 3 requests, 2 of them would-be rejections; strict 3 and 1 rejection
    TopKeys top = runtime.insight.topKeys().orElseThrow();
    assertThat(top.view("api").byRequests()).containsExactly(new KeyCount("h:k", 3, 0));
    assertThat(top.view("api").byRejections()).containsExactly(new KeyCount("h:k", 2, 0));
    assertThat(top.view("strict").byRejections()).containsExactly(new KeyCount("h:k", 1, 0));
    // And late, which the third request never reached, counts the 2 it decided
    assertThat(top.view("late").byRequests()).containsExactly(new KeyCount("h:k", 2, 0));
  }

  @Test
  void topKeysAreOffUnlessEnabled() {
    Runtime runtime = new Runtime(policy("fixed-window", "2/m"), "api");

    runtime.send(List.of(new Sent(1, "busy")));

    assertThat(runtime.insight.topKeys()).isEmpty();
    assertThat(new Insight(TopKeysSettings.DEFAULTS, runtime.clock).topKeys()).isEmpty();
  }
}
