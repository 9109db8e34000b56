package io.github.limiter.servlet;

import io.github.limiter.config.Route;
import java.util.Set;

/**
 * {@link Route#matches} with its pattern taken apart once, so that matching allocates nothing: it
 * runs for every route on every request. RouteMatcherTest checks that both always agree.
 */
final class RouteMatcher {

  private enum Kind { EXACT, PREFIX, EXTENSION, ALL }

  private final Kind kind;
  private final String text;
  private final String prefixSlash;
  private final Set<String> methods;

  RouteMatcher(Route route) {
    String pattern = route.pattern();
    methods = route.methods().isEmpty() ? null : route.methods();
    if (pattern.startsWith("*.")) {
      kind = Kind.EXTENSION;
      text = pattern.substring(1);
      prefixSlash = null;
    } else if (pattern.endsWith("/*")) {
      text = pattern.substring(0, pattern.length() - 2);
      kind = text.isEmpty() ? Kind.ALL : Kind.PREFIX;
      prefixSlash = text + "/";
    } else {
      kind = Kind.EXACT;
      text = pattern;
      prefixSlash = null;
    }
  }

  boolean matches(String path, String method) {
    if (methods != null && !methods.contains(method)) {
      return false;
    }
    return switch (kind) {
      case ALL -> true;
      case EXACT -> path.equals(text);
      case EXTENSION -> path.endsWith(text);
      case PREFIX -> path.startsWith(prefixSlash) || path.equals(text);
    };
  }
}
