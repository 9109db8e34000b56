package io.github.limiter.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.internal.config.Route;
import io.github.limiter.internal.render.ResponseRenderer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the servlet filter runs on every admitted request, beyond the decision: route matching, the
 * charged-policies scope, and the {@code RateLimit-Policy} value, computed once per policy.
 */
class AdmittedPathAllocationTest {

  static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  static final int CALLS = 200_000;
  static int sink;

  /**
   * The least bytes per call over several rounds: on a loaded machine the JIT may still be
   * compiling during the first rounds, and code that is not compiled yet allocates what escape
   * analysis later removes.
   */
  static long bytesPerCall(Runnable call) {
    for (int i = 0; i < CALLS; i++) {
      call.run(); // warm up: let the JIT compile what it will
    }
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 10 && least > 0; round++) {
      long before = THREADS.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < CALLS; i++) {
        call.run();
      }
      least = Math.min(least, (THREADS.getCurrentThreadAllocatedBytes() - before) / CALLS);
    }
    return least;
  }

  @Test
  void routeMatchingAllocatesNothing() {
    Route[] routes = {
      new Route("a", "/api/*", Set.of(), List.of("p")),
      new Route("b", "*.json", Set.of("GET"), List.of("p")),
      new Route("c", "/login", Set.of(), List.of("p")),
      new Route("d", "/*", Set.of(), List.of("p"))
    };
    String[] paths = {"/api", "/api/x/y.json", "/apix", "/login", "/other.json"};

    long bytes =
        bytesPerCall(
            () -> {
              for (Route route : routes) {
                for (String path : paths) {
                  sink += route.matches(path, "GET") ? 1 : 0;
                }
              }
            });

    assertThat(bytes).as("bytes per 20 matches").isZero();
  }

  @Test
  void aChargedPoliciesScopeAllocatesNothingOnceTheThreadHasOpenedOne() {
    List<String> names = List.of("api");

    long bytes =
        bytesPerCall(
            () -> {
              try (ChargedPolicies.Scope scope = ChargedPolicies.open(names)) {
                sink += ChargedPolicies.contains("api") ? 1 : 0;
              }
            });

    assertThat(bytes).as("bytes per scope").isZero();
    assertThat(ChargedPolicies.contains("api")).isFalse();
  }

  @Test
  void closingAnOuterScopeClosesWhatWasLeftOpenInsideIt() {
    ChargedPolicies.Scope outer = ChargedPolicies.open(List.of("api"));
    ChargedPolicies.open(List.of("login")); // never closed, say by a failing inner adapter

    outer.close();

    assertThat(ChargedPolicies.contains("api")).isFalse();
    assertThat(ChargedPolicies.contains("login")).isFalse();
    try (ChargedPolicies.Scope a = ChargedPolicies.open(List.of("a"));
        ChargedPolicies.Scope b = ChargedPolicies.open(List.of("b"));
        ChargedPolicies.Scope c = ChargedPolicies.open(List.of("c"))) {
      assertThat(
              ChargedPolicies.contains("a")
                  && ChargedPolicies.contains("b")
                  && ChargedPolicies.contains("c"))
          .isTrue();
    }
    assertThat(ChargedPolicies.contains("a")).isFalse();
  }

  @Test
  void thePolicyHeaderIsComputedOncePerPolicy() {
    ResponseRenderer renderer = new ResponseRenderer(HttpSettings.DEFAULTS);
    Policy api =
        Policy.tokenBucket(
            "api",
            Limit.bucket(10, Duration.ofSeconds(1), 20),
            Limit.of(1000, Duration.ofHours(1)));
    Decision decision = Decision.allowed("api", api.limits().get(1), 7, 3_000_000_000L, 0);

    String first = renderer.policyHeader(api);
    StringBuilder seen = new StringBuilder();
    renderer.headers(
        api, decision, (name, value) -> seen.append(name).append(": ").append(value).append('\n'));

    assertThat(first)
        .isEqualTo("\"api\";q=20;w=2, \"api.2\";q=1000;w=3600")
        .isSameAs(renderer.policyHeader(api));
    assertThat(seen).hasToString("RateLimit-Policy: " + first + "\nRateLimit: \"api.2\";r=7;t=3\n");
  }
}
