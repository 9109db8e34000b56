package io.github.limiter.internal.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Maps requests to policies, as {@code limiter.route.<name>.*} says.
 *
 * <p>Patterns follow the servlet URL-pattern rules: an exact path ({@code /api/login}), a prefix
 * ({@code /api/*}, which also matches {@code /api}), an extension ({@code *.json}), or {@code /*}
 * for everything. They match the path within the application, without the context path.
 *
 * @param name the route's name in configuration
 * @param pattern the URL pattern
 * @param methods upper-case HTTP methods it applies to; empty for all
 * @param policies the policies that must all admit a matching request
 * @param criticality the criticality of its requests under a concurrency limit, when their own
 *     source names none; null: their policies'
 */
public record Route(
    String name,
    String pattern,
    Set<String> methods,
    List<String> policies,
    Criticality criticality) {

  /** A route whose requests are of their policies' criticality. */
  public Route(String name, String pattern, Set<String> methods, List<String> policies) {
    this(name, pattern, methods, policies, null);
  }

  public Route {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(pattern, "pattern");
    methods = Set.copyOf(methods.stream().map(m -> m.toUpperCase(Locale.ROOT)).toList());
    policies = List.copyOf(policies);
    if (!isValidPattern(pattern)) {
      throw new IllegalArgumentException(
          "expected a servlet URL pattern such as '/api/*', '/login' or '*.json', was '"
              + pattern
              + "'");
    }
    if (policies.isEmpty()) {
      throw new IllegalArgumentException("a route needs at least one policy");
    }
  }

  static boolean isValidPattern(String pattern) {
    if (pattern.startsWith("*.")) {
      return pattern.length() > 2 && pattern.indexOf('/') < 0 && pattern.indexOf('*', 1) < 0;
    }
    if (!pattern.startsWith("/")) {
      return false;
    }
    int star = pattern.indexOf('*');
    return star < 0 || star == pattern.length() - 1 && pattern.endsWith("/*");
  }

  /**
   * Whether a request for {@code path} (within the application) with {@code method} matches. It
   * runs for every route on every request, so it compares regions of the pattern in place and
   * allocates nothing.
   */
  public boolean matches(String path, String method) {
    if (!methods.isEmpty() && !methods.contains(method)) {
      return false;
    }
    int length = pattern.length();
    if (pattern.startsWith("*.")) {
      // "*.json": the path ends with ".json"
      int suffix = length - 1;
      return path.length() >= suffix
          && path.regionMatches(path.length() - suffix, pattern, 1, suffix);
    }
    if (pattern.endsWith("/*")) {
      // "/api/*": "/api" itself, or below "/api/"; "/*": everything
      int prefix = length - 2;
      if (prefix == 0) {
        return true;
      }
      return path.length() == prefix
          ? path.regionMatches(0, pattern, 0, prefix)
          : path.length() > prefix && path.regionMatches(0, pattern, 0, prefix + 1);
    }
    return path.equals(pattern);
  }
}
