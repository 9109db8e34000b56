package io.github.limiter.cdi;

import java.util.Optional;

/** The parts of the current HTTP request that key sources read; servlet-free, so CDI works without it. */
interface WebRequest {

  /** The client address key, through trusted proxies only, IPv6 grouped by prefix: {@code ip:192.0.2.7}. */
  String clientAddress();

  /** The key of header {@code name}'s first value ({@code h:<value>}), if present, not blank and free of control characters. */
  Optional<String> header(String name);

  /** The key of the authenticated principal ({@code p:<name>}), if any. */
  Optional<String> principal();
}
