package io.github.limiter.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A request passing the filter and an interceptor under the same policy counts once. */
class ChargedPoliciesTest {

  @Test
  void aScopeMarksPoliciesChargedUntilClosedAndNestsOverTheOuterScope() {
    // Given nothing is charged
    assertThat(ChargedPolicies.contains("api")).isFalse();

    // When the filter opens a scope, and an inner one adds a policy
    try (ChargedPolicies.Scope outer = ChargedPolicies.open(List.of("api"))) {
      assertThat(ChargedPolicies.contains("api")).isTrue();
      try (ChargedPolicies.Scope inner = ChargedPolicies.open(List.of("login"))) {
        assertThat(ChargedPolicies.contains("api")).isTrue();
        assertThat(ChargedPolicies.contains("login")).isTrue();
      }

      // Then closing the inner one restores the outer
      assertThat(ChargedPolicies.contains("login")).isFalse();
      assertThat(ChargedPolicies.contains("api")).isTrue();
    }
    assertThat(ChargedPolicies.contains("api")).isFalse();
  }

  @Test
  void scopesBelongToTheirThread() throws Exception {
    AtomicBoolean seenElsewhere = new AtomicBoolean(true);
    try (ChargedPolicies.Scope scope = ChargedPolicies.open(List.of("api"))) {
      Thread other = new Thread(() -> seenElsewhere.set(ChargedPolicies.contains("api")));
      other.start();
      other.join();
    }

    assertThat(seenElsewhere).isFalse();
  }
}
