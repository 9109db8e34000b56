package io.github.limiter.internal.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limiter;
import io.github.limiter.internal.config.LimiterConfig;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.render.ResponseRenderer;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.ManualClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An unknown plan under {@code on-unknown-plan=reject} is its own outcome, not a missing key, and
 * is rendered with the missing key's response all the same.
 */
class UnknownPlanTest {

  private final Limiter limiter =
      Limiter.of(InMemoryStore.builder().clock(ManualClock.at(ManualClock.NEAR_MAX)).build());
  private final LimiterConfig config =
      LimiterConfig.from(
          ConfigLookup.of(
              Map.of(
                  "limiter.policy.strict.algorithm", "fixed-window",
                  "limiter.policy.strict.limits", "1/m",
                  "limiter.policy.strict.key", "header:X-Api-Key",
                  "limiter.policy.strict.on-missing-key", "reject",
                  "limiter.policy.strict.plan.pro.limits", "5/m",
                  "limiter.policy.strict.plan-source", "header:X-Plan",
                  "limiter.policy.strict.on-unknown-plan", "reject",
                  "limiter.http.trusted-proxies", "10.0.0.1/32")));

  @AfterEach
  void close() {
    limiter.close();
  }

  @Test
  void anUnknownPlanIsItsOwnRejectionRenderedAsAMissingKeyIs() throws IOException {
    // Given a policy that rejects both a missing key and an unknown plan
    Admission admission =
        new Admission(
            new ClientAddress(config.http()),
            true,
            false,
            AdmissionObserver.NONE,
            AdmissionMetrics.OFF);
    RuleCompiler compiler =
        new RuleCompiler(
            admission,
            (policy, setting, name) -> {
              throw new AssertionError("no resolver is named here");
            });
    PolicySet set =
        PolicySet.of(
            List.of(compiler.compile(config.policy("strict").orElseThrow())), limiter::bind);

    // When a request names a plan the policy does not know, and another one has no key
    RequestFrame unknown =
        admission.admit(
            set,
            new AdmissionTest.View("10.0.0.1", Map.of("X-Api-Key", "k", "X-Plan", "platinum")));
    RequestFrame keyless =
        admission.admit(set, new AdmissionTest.View("10.0.0.1", Map.of("X-Plan", "pro")));

    // Then each is rejected for what it is, and neither would ever pass as it is
    assertThat(unknown.rejection().outcome()).isEqualTo(Decision.Outcome.UNKNOWN_PLAN);
    assertThat(keyless.rejection().outcome()).isEqualTo(Decision.Outcome.MISSING_KEY);
    assertThat(unknown.rejection().neverPasses()).isTrue();
    assertThat(unknown.rejection().retryAfter()).isEmpty();

    // And both responses are the same: no Retry-After, no RateLimit headers, the same problem
    ResponseRenderer renderer = new ResponseRenderer(config.http());
    assertThat(rendered(renderer, unknown))
        .isEqualTo(rendered(renderer, keyless))
        .contains("Cache-Control: no-store")
        .noneMatch(line -> line.startsWith("Retry-After") || line.startsWith("RateLimit"))
        .anyMatch(line -> line.contains("no plan it knows"));
  }

  private static List<String> rendered(ResponseRenderer renderer, RequestFrame frame)
      throws IOException {
    List<String> lines = new ArrayList<>();
    renderer.reject(
        frame.policy(frame.rejectedAt()),
        frame.rejection(),
        new ResponseRenderer.RejectionSink() {
          @Override
          public void status(int status) {
            lines.add("status " + status);
          }

          @Override
          public void header(String name, String value) {
            lines.add(name + ": " + value);
          }

          @Override
          public void body(String contentType, byte[] body) {
            lines.add(contentType + " " + new String(body, StandardCharsets.UTF_8));
          }
        });
    return lines;
  }
}
