package io.github.limiter.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.metrics.Recorder;
import io.github.limiter.spi.ConfigLookup;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Issue 36.1 and 36.2: a failed start is one SEVERE line; a good one says what it read. */
class StartLogTest {

  private final CapturedLog captured = new CapturedLog();
  private final Logger log = captured.logger;
  private final List<LogRecord> records = captured.records;

  @Test
  void aFailedStartIsOneSevereLineThatCountsAndListsTheProblems() {
    // When two problems fail the filter's start
    String line =
        StartLog.failed(
            log,
            "RateLimitFilter 'limiter'",
            List.of(
                "limiter.policy.api.limits: expected <permits>/<period>, was '10 per sec'",
                "limiter.stor: unknown key, was 'redis'"));

    // Then one SEVERE line, without a stack trace, says so, and is the text returned
    assertThat(records).hasSize(1);
    assertThat(records.get(0).getLevel()).isEqualTo(Level.SEVERE);
    assertThat(records.get(0).getThrown()).isNull();
    assertThat(records.get(0).getMessage()).isEqualTo(line);
    assertThat(line)
        .isEqualTo(
            "LIMITER CONFIGURATION FAILED: 2 problems in RateLimitFilter 'limiter':"
                + " (1) limiter.policy.api.limits: expected <permits>/<period>, was '10 per sec';"
                + " (2) limiter.stor: unknown key, was 'redis'");
  }

  @Test
  void oneProblemIsCountedInTheSingular() {
    String line = StartLog.failed(log, "@Limited", List.of("limiter.policy.x.limits: required"));

    assertThat(line)
        .isEqualTo(
            "LIMITER CONFIGURATION FAILED: 1 problem in @Limited: (1) limiter.policy.x.limits:"
                + " required");
  }

  @Test
  void aStartSaysWhatItReadAndNamesTheFallbackToTheAddress() {
    // Given a policy keyed by a header (falling back to the address), one by address, one route
    LimiterConfig config =
        LimiterConfig.from(
            ConfigLookup.of(
                Map.of(
                    "limiter.policy.api.algorithm", "token-bucket",
                    "limiter.policy.api.limits", "10/s",
                    "limiter.policy.api.key", "header:X-Api-Key",
                    "limiter.policy.login.algorithm", "fixed-window",
                    "limiter.policy.login.limits", "5/m",
                    "limiter.policy.login.key", "principal",
                    "limiter.policy.login.on-missing-key", "reject",
                    "limiter.route.api.pattern", "/api/*",
                    "limiter.route.api.methods", "GET",
                    "limiter.route.api.policies", "api,login")));

    // When the filter starts
    StartLog.started(log, "RateLimitFilter 'limiter'", config, null, "memory", Recorder.NOOP);

    // Then one INFO line names the policies, their keys, the route, the store and the metrics
    assertThat(records).hasSize(1);
    assertThat(records.get(0).getLevel()).isEqualTo(Level.INFO);
    assertThat(records.get(0).getMessage())
        .isEqualTo(
            "Limiter started for RateLimitFilter 'limiter': 2 policies [api: token-bucket 10/s by"
                + " key header:X-Api-Key (if missing: remote-address); login: fixed-window 5/m by"
                + " key principal (if missing: reject)], 1 route [api: GET /api/* -> api, login],"
                + " store memory, metrics none");
  }

  @Test
  void aLimitedStartNamesItsSites() {
    LimiterConfig config =
        LimiterConfig.from(
            ConfigLookup.of(
                Map.of(
                    "limiter.policy.bean.algorithm", "fixed-window",
                    "limiter.policy.bean.limits", "2/m")));

    StartLog.started(
        log,
        "@Limited",
        config,
        List.of("@Limited(\"bean\") on com.acme.Greeter.greet(String)"),
        "memory",
        Recorder.NOOP);

    assertThat(records.get(0).getMessage())
        .isEqualTo(
            "Limiter started for @Limited: 1 policy [bean: fixed-window 2/m by key"
                + " remote-address], 1 @Limited site [@Limited(\"bean\") on"
                + " com.acme.Greeter.greet(String)], store memory, metrics none");
  }
}
