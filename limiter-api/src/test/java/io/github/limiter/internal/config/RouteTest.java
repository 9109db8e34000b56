package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Servlet URL-pattern matching: exact, prefix (with the bare prefix), extension, /*, methods. */
class RouteTest {

  static Route route(String pattern, String... methods) {
    return new Route("r", pattern, Set.of(methods), List.of("api"));
  }

  @ParameterizedTest(name = "{0} ~ {1}: {2}")
  @CsvSource({
    "/api/login, /api/login,  true",
    "/api/login, /api/login/, false",
    "/api/login, /api/logins, false",
    "/api/login, /api,        false",
    "/api/*,     /api,        true",
    "/api/*,     /api/,       true",
    "/api/*,     /api/x,      true",
    "/api/*,     /api/x/y.json, true",
    "/api/*,     /apix,       false",
    "/api/*,     /ap,         false",
    "/api/*,     /,           false",
    "/a/b/*,     /a/b,        true",
    "/a/b/*,     /a/bc,       false",
    "*.json,     /a/b.json,   true",
    "*.json,     /b.json,     true",
    "*.json,     /a/json,     false",
    "*.json,     /a/b.jsonp,  false",
    "/*,         /,           true",
    "/*,         /anything/at/all, true",
    "/*,         '',          true",
    "/,          /,           true",
    "/,          /x,          false"
  })
  void matchesAsServletPatternsDo(String pattern, String path, boolean matches) {
    assertThat(route(pattern).matches(path, "GET")).isEqualTo(matches);
  }

  @Test
  void methodsRestrictTheRouteAndAreUpperCased() {
    Route getOnly = route("/api/*", "get", "Post");

    assertThat(getOnly.methods()).containsExactlyInAnyOrder("GET", "POST");
    assertThat(getOnly.matches("/api/x", "GET")).isTrue();
    assertThat(getOnly.matches("/api/x", "POST")).isTrue();
    assertThat(getOnly.matches("/api/x", "DELETE")).isFalse();
    assertThat(getOnly.matches("/other", "GET")).isFalse();
    assertThat(route("/api/*").matches("/api/x", "PATCH")).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", "api", "api/*", "/api*", "/a/*/b", "/a/**", "*.", "*.a/b", "*.a*", "**.json", "*"
      })
  void rejectsPatternsThatAreNotServletPatterns(String pattern) {
    assertThatThrownBy(() -> route(pattern))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was '" + pattern + "'");
  }

  @Test
  void aRouteNeedsAPolicy() {
    assertThatThrownBy(() -> new Route("r", "/*", Set.of(), List.of()))
        .hasMessageContaining("at least one policy");
  }
}
