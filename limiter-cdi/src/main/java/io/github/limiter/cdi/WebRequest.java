package io.github.limiter.cdi;

import java.util.Optional;

/** The parts of the current HTTP request that key sources read; servlet-free, so CDI works without it. */
interface WebRequest {

  /** The client address, through trusted proxies only, IPv6 grouped by prefix. */
  String clientAddress();

  /** The first value of header {@code name}, if present and not blank. */
  Optional<String> header(String name);

  /** The authenticated principal's name, if any. */
  Optional<String> principal();
}
