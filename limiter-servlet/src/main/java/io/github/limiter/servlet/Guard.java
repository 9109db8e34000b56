package io.github.limiter.servlet;

import io.github.limiter.Policy;
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.config.PolicyConfig;
import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.http.ClientKeys;
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
      case REMOTE_ADDRESS -> request -> addressKey(address, request);
      case HEADER -> {
        String header = source.argument();
        yield request -> ClientKeys.header(request.getHeader(header));
      }
      case PRINCIPAL -> Guard::principalKey;
      case CONSTANT -> request -> ClientKeys.CONSTANT;
      case RESOLVER -> {
        KeyResolver resolver = resolvers.get().get(configKey, source.argument());
        yield request -> ClientKeys.resolver(KeyResolvers.resolve(resolver, request));
      }
    };
  }

  /** The client address key of {@code request}: the core's walk over the request's peer and headers. */
  static String addressKey(ClientAddress address, HttpServletRequest request) {
    return address.key(request.getRemoteAddr(), request::getHeaders);
  }

  private static String principalKey(HttpServletRequest request) {
    Principal principal = request.getUserPrincipal();
    return principal == null ? null : ClientKeys.principal(principal.getName());
  }
}
