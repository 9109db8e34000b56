package io.github.limiter.config;

import java.util.List;

/**
 * How HTTP adapters render decisions and find the client address.
 *
 * @param rejectionStatus status of a rejection over the limit (429)
 * @param unavailableStatus status of a fail-closed store outage (503)
 * @param headers whether to send {@code RateLimit-Policy} and {@code RateLimit}
 * @param legacyHeaders whether to send {@code X-RateLimit-Limit/-Remaining/-Reset} as well
 * @param trustedProxies CIDRs of proxies whose {@code X-Forwarded-For}/{@code Forwarded} are believed
 * @param ipv6Prefix IPv6 client addresses are grouped by this prefix length
 */
public record HttpSettings(
    int rejectionStatus,
    int unavailableStatus,
    boolean headers,
    boolean legacyHeaders,
    List<String> trustedProxies,
    int ipv6Prefix) {

  public static final HttpSettings DEFAULTS = new HttpSettings(429, 503, true, false, List.of(), 64);

  public HttpSettings {
    trustedProxies = List.copyOf(trustedProxies);
    if (rejectionStatus < 400 || rejectionStatus > 599) {
      throw new IllegalArgumentException("rejection status must be 4xx or 5xx, was " + rejectionStatus);
    }
    if (unavailableStatus < 400 || unavailableStatus > 599) {
      throw new IllegalArgumentException("unavailable status must be 4xx or 5xx, was " + unavailableStatus);
    }
    if (ipv6Prefix < 1 || ipv6Prefix > 128) {
      throw new IllegalArgumentException("IPv6 prefix must be between 1 and 128, was " + ipv6Prefix);
    }
  }
}
