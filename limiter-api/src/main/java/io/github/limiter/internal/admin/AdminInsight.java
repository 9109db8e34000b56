package io.github.limiter.internal.admin;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Peek;
import io.github.limiter.Policy;
import io.github.limiter.internal.insight.Insight;
import io.github.limiter.internal.insight.KeyCount;
import io.github.limiter.internal.insight.PolicyScope;
import io.github.limiter.internal.insight.ShadowTrial;
import io.github.limiter.internal.insight.ShadowTrials;
import io.github.limiter.internal.insight.TopKeysView;
import io.github.limiter.internal.insight.Traffic;
import io.github.limiter.internal.insight.TrialView;
import io.github.limiter.internal.live.KeyOverride;
import io.github.limiter.internal.live.LiveLimits;
import io.github.limiter.internal.live.PolicyVersion;
import io.github.limiter.internal.runtime.LimiterRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;

/**
 * The admin API's view of live traffic: a policy's top keys, a key's state and its shadow trial,
 * over the {@link Insight} of the application's runtime, which every adapter reports to.
 */
final class AdminInsight {

  private AdminInsight() {}

  /** A request the admin API cannot do in the policy's present state: 409. */
  static final class Conflict extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Conflict(String message) {
      super(message, null, false, false);
    }
  }

  /** {@code name}'s top keys as JSON, or empty when top keys are off. */
  static Optional<Map<String, Object>> topKeys(LimiterRuntime runtime, String name) {
    return runtime
        .insight()
        .topKeys()
        .map(
            top -> {
              TopKeysView view = top.view(name);
              Map<String, Object> json = new LinkedHashMap<>();
              json.put("policy", name);
              json.put("coveredSeconds", view.covered().toSeconds());
              json.put("windowSeconds", top.window().toSeconds());
              json.put("requests", view.requests());
              json.put("rejections", view.rejections());
              json.put("byRequests", counts(view.byRequests()));
              json.put("byRejections", counts(view.byRejections()));
              return json;
            });
  }

  /**
   * {@code name}'s admitted and rejected requests per second over the last {@link Traffic#SECONDS}
   * seconds, the oldest first and the current second last, whichever adapter decided them.
   */
  static Map<String, Object> traffic(LimiterRuntime runtime, String name) {
    Traffic.Series series = runtime.insight().traffic().series(name);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("policy", name);
    json.put("stepSeconds", 1);
    json.put("admitted", LongStream.of(series.admitted()).boxed().toList());
    json.put("rejected", LongStream.of(series.rejected()).boxed().toList());
    return json;
  }

  /**
   * What {@code name} limits, at the places of every adapter: its {@code routes}, its {@code sites}
   * ({@code @Limited} methods), its {@code keys} and {@code onMissingKey}; empty lists and a null
   * {@code onMissingKey} for a policy that no adapter describes.
   */
  static Map<String, Object> scope(LimiterRuntime runtime, String name) {
    PolicyScope all = runtime.insight().scope(name).orElse(null);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("routes", all == null ? List.of() : all.routes());
    json.put("sites", all == null ? List.of() : all.sites());
    json.put("keys", all == null ? List.of() : all.keys());
    json.put("onMissingKey", all == null ? null : all.onMissingKey());
    return json;
  }

  /**
   * The state of {@code key} under policy {@code name}, read without charging it: the policy's live
   * version and limits, the limit with the fewest permits left, what the key has left and when it
   * is fresh again, and its override (null if none). A key with limits of its own reads under them.
   */
  static Map<String, Object> keyState(LimiterRuntime runtime, String name, String key) {
    if (key.length() > io.github.limiter.Limiter.MAX_KEY_LENGTH) {
      throw new IllegalArgumentException(
          "key: expected at most " + io.github.limiter.Limiter.MAX_KEY_LENGTH + " characters");
    }
    LiveLimits live = runtime.live();
    PolicyVersion version = live.policies().version(name).orElseThrow();
    KeyOverride override = live.overrides().of(name).get(key);
    Peek peek =
        live.store()
            .view(Peek.class)
            .orElseThrow(
                () ->
                    new UnsupportedOperationException(
                        "the store cannot read a key's state without charging it"));
    Decision state =
        override != null && override.bound() != null
            ? peek.peek(override.bound(), key)
            : peek.peek(version.policy(), key);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("policy", name);
    json.put("key", key);
    json.put("version", version.number());
    json.put("limits", PolicyVersion.text(version.policy()));
    json.put("limit", state.limit().toString());
    json.put("remaining", state.remaining());
    json.put("resetSeconds", (state.resetAfterNanos() + 999_999_999) / 1_000_000_000);
    json.put(
        "override",
        override == null ? null : override(key, override, live.overrides().clock().nanos()));
    return json;
  }

  /** One key's override as JSON: key, kind, limits ("" unless its own), expiresInSeconds. */
  static Map<String, Object> override(String key, KeyOverride o, long now) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("key", key);
    json.put("kind", o.kind().configName());
    json.put("limits", o.kind() == KeyOverride.Kind.LIMITS ? PolicyVersion.text(o.policy()) : "");
    long left = o.remainingAt(now);
    json.put(
        "expiresInSeconds", left == Long.MAX_VALUE ? null : (left + 999_999_999) / 1_000_000_000);
    return json;
  }

  /** {@code name}'s latest trial as JSON, or empty if it has none. */
  static Optional<Map<String, Object>> trial(LimiterRuntime runtime, String name) {
    return runtime.insight().trials().trial(name).map(trial -> json(trial.view()));
  }

  /**
   * Starts trying {@code limits} for {@code period} on {@code name}, on every adapter's requests.
   *
   * @throws IllegalArgumentException naming a bad value; nothing started then
   * @throws Conflict if a trial of the policy runs
   */
  static Map<String, Object> start(
      LimiterRuntime runtime, String name, String limits, String period) {
    if (limits == null) {
      throw new IllegalArgumentException("limits: required, such as {\"limits\": \"5/s\"}");
    }
    if (period == null || period.isBlank()) {
      throw new IllegalArgumentException("period: required, such as {\"period\": \"10m\"}");
    }
    Duration duration;
    try {
      duration = Limit.parseDuration(period);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("period: " + e.getMessage());
    }
    Policy candidate = runtime.live().policies().validate(name, limits);
    Policy current = runtime.live().policies().version(name).orElseThrow().policy();
    ShadowTrials trials = runtime.insight().trials();
    Optional<ShadowTrial> old = trials.trial(name);
    if (old.isPresent() && old.get().state() == ShadowTrial.State.RUNNING) {
      throw new Conflict(
          "policy '" + name + "': a shadow trial is running; apply or discard it first");
    }
    try {
      return json(trials.start(current, candidate.limits(), duration).view());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          (e.getMessage().contains("period") ? "period: " : "limits: ") + e.getMessage(), e);
    } catch (IllegalStateException e) {
      throw new Conflict(e.getMessage());
    }
  }

  /**
   * The candidate policy of {@code name}'s running trial: what applying it puts in force.
   *
   * @throws Conflict if none is running
   */
  static Policy candidate(LimiterRuntime runtime, String name) {
    Optional<ShadowTrial> trial = runtime.insight().trials().trial(name);
    if (trial.isPresent() && trial.get().view().state() == ShadowTrial.State.RUNNING) {
      return trial.get().candidate();
    }
    throw new Conflict("policy '" + name + "' has no running shadow trial to apply");
  }

  /**
   * Ends {@code name}'s running trial as applied, once its candidate is in force: so that a change
   * the store refused leaves the trial running.
   */
  static void applied(LimiterRuntime runtime, String name) {
    runtime.insight().trials().apply(name);
  }

  /** Discards {@code name}'s latest trial; false if it had none. */
  static boolean discard(LimiterRuntime runtime, String name) {
    return runtime.insight().trials().discard(name);
  }

  private static Map<String, Object> json(TrialView view) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("policy", view.policy());
    json.put("state", view.state().name().toLowerCase(java.util.Locale.ROOT));
    json.put("algorithm", view.algorithm().configName());
    json.put("current", text(view.current()));
    json.put("candidate", text(view.candidate()));
    json.put("elapsedSeconds", view.elapsed().toSeconds());
    json.put("remainingSeconds", view.remaining().toSeconds());
    json.put("requests", view.requests());
    json.put("rejected", view.rejected());
    json.put("wouldReject", view.wouldReject());
    json.put("wouldRejectKeys", counts(view.wouldRejectKeys()));
    return json;
  }

  private static String text(List<Limit> limits) {
    return String.join(", ", limits.stream().map(Limit::toString).toList());
  }

  /** Each key with its count (an upper bound) and error: it had at least count - error. */
  private static List<Map<String, Object>> counts(List<KeyCount> counts) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (KeyCount c : counts) {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("key", c.key());
      json.put("count", c.count());
      json.put("error", c.error());
      list.add(json);
    }
    return list;
  }
}
