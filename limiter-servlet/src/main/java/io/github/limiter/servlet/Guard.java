package io.github.limiter.servlet;

import io.github.limiter.Policy;
import io.github.limiter.config.KeySource;
import io.github.limiter.config.PolicyConfig;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;

/** One configured policy as the filter applies it: its key function, options and counters. */
final class Guard {

  /** Finds a request's key under a policy; null when the request has none. */
  @FunctionalInterface
  interface KeyFunction {
    String key(HttpServletRequest request);
  }

  // Each key source has its own prefix, so that a header value such as "192.0.2.7" cannot share a
  // counter with the client of that address when another request falls back to the address.
  static final String HEADER_PREFIX = "h:";
  static final String PRINCIPAL_PREFIX = "p:";
  static final String RESOLVER_PREFIX = "r:";
  static final String CONSTANT_KEY = "c:global";

  final PolicyConfig config;
  final Policy policy;
  final String name;
  final KeyFunction key;
  final long permits;
  final boolean dryRun;
  final boolean shapes;
  final LongAdder admitted = new LongAdder();
  final LongAdder rejected = new LongAdder();
  final LongAdder dryRunRejected = new LongAdder();
  final LongAdder delayed = new LongAdder();
  final RateLimitedLog dryRunLog;

  Guard(PolicyConfig config, KeyFunction key, Logger logger) {
    this.config = config;
    this.policy = config.policy();
    this.name = config.name();
    this.key = key;
    this.permits = config.permits();
    this.dryRun = config.dryRun();
    this.shapes = !config.shaping().nodelay();
    this.dryRunLog = new RateLimitedLog(logger);
  }

  /** The key function for {@code source}; {@code resolvers} is asked only for {@code resolver:}. */
  static KeyFunction keyFunction(
      KeySource source, String configKey, ClientAddress address, java.util.function.Supplier<KeyResolvers> resolvers) {
    return switch (source.kind()) {
      case REMOTE_ADDRESS -> address::key;
      case HEADER -> {
        String header = source.argument();
        yield request -> headerKey(request.getHeader(header));
      }
      case PRINCIPAL -> Guard::principalKey;
      case CONSTANT -> request -> CONSTANT_KEY;
      case RESOLVER -> {
        KeyResolver resolver = resolvers.get().get(configKey, source.argument());
        yield request -> {
          String key = KeyResolvers.resolve(resolver, request);
          return key == null ? null : RESOLVER_PREFIX + key;
        };
      }
    };
  }

  /** A header value as a key: blank or holding control characters counts as no key. */
  static String headerKey(String value) {
    if (value == null) {
      return null;
    }
    String key = value.strip();
    if (key.isEmpty()) {
      return null;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return null;
      }
    }
    return HEADER_PREFIX + key;
  }

  private static String principalKey(HttpServletRequest request) {
    Principal principal = request.getUserPrincipal();
    String name = principal == null ? null : principal.getName();
    return name == null || name.isBlank() ? null : PRINCIPAL_PREFIX + name;
  }
}
