package io.github.limiter.internal.http;

import io.github.limiter.internal.names.ConfigNames;
import java.util.List;
import java.util.Objects;

/**
 * How HTTP adapters render decisions and find the client address.
 *
 * @param rejectionStatus status of a rejection over the limit (429)
 * @param unavailableStatus status of a fail-closed store outage (503)
 * @param headers whether to send {@code RateLimit-Policy} and {@code RateLimit}
 * @param legacyHeaders whether to send {@code X-RateLimit-Limit/-Remaining/-Reset} as well
 * @param trustedProxies CIDRs of proxies whose {@code X-Forwarded-For}/{@code Forwarded} are
 *     believed, each checked by {@link Cidr#parse}
 * @param ipv6Prefix IPv6 client addresses are grouped by this prefix length
 * @param forwardedHeader the one header the trusted proxies write
 */
public record HttpSettings(
    int rejectionStatus,
    int unavailableStatus,
    boolean headers,
    boolean legacyHeaders,
    List<String> trustedProxies,
    int ipv6Prefix,
    ForwardedHeader forwardedHeader) {

  public static final HttpSettings DEFAULTS =
      new HttpSettings(429, 503, true, false, List.of(), 64, ForwardedHeader.X_FORWARDED_FOR);

  /** The header that trusted proxies write, as {@code limiter.http.forwarded-header} names it. */
  public enum ForwardedHeader {
    /** {@code X-Forwarded-For: client, proxy1}. The default. */
    X_FORWARDED_FOR("x-forwarded-for", "X-Forwarded-For"),
    /** RFC 7239 {@code Forwarded: for=client, for=proxy1}. */
    FORWARDED("forwarded", "Forwarded");

    private final String configName;
    private final String headerName;

    ForwardedHeader(String configName, String headerName) {
      this.configName = configName;
      this.headerName = headerName;
    }

    public String configName() {
      return configName;
    }

    /** The HTTP header's name. */
    public String headerName() {
      return headerName;
    }

    /**
     * Parses {@code x-forwarded-for} or {@code forwarded}, in any case.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static ForwardedHeader fromConfigName(String text) {
      return ConfigNames.parse(ForwardedHeader.class, ForwardedHeader::configName, text);
    }
  }

  /** Settings with {@code X-Forwarded-For} as the proxies' header. */
  public HttpSettings(
      int rejectionStatus,
      int unavailableStatus,
      boolean headers,
      boolean legacyHeaders,
      List<String> trustedProxies,
      int ipv6Prefix) {
    this(
        rejectionStatus,
        unavailableStatus,
        headers,
        legacyHeaders,
        trustedProxies,
        ipv6Prefix,
        ForwardedHeader.X_FORWARDED_FOR);
  }

  public HttpSettings {
    trustedProxies = List.copyOf(trustedProxies);
    Objects.requireNonNull(forwardedHeader, "forwardedHeader");
    if (rejectionStatus < 400 || rejectionStatus > 599) {
      throw new IllegalArgumentException(
          "rejection status must be 4xx or 5xx, was " + rejectionStatus);
    }
    if (unavailableStatus < 400 || unavailableStatus > 599) {
      throw new IllegalArgumentException(
          "unavailable status must be 4xx or 5xx, was " + unavailableStatus);
    }
    if (ipv6Prefix < 1 || ipv6Prefix > 128) {
      throw new IllegalArgumentException(
          "IPv6 prefix must be between 1 and 128, was " + ipv6Prefix);
    }
    for (String cidr : trustedProxies) {
      Cidr.parse(cidr); // fails naming the bad entry
    }
  }

  /** {@link #trustedProxies()} parsed; adapters call it once, at start-up. */
  public List<Cidr> trustedNetworks() {
    return trustedProxies.stream().map(Cidr::parse).toList();
  }
}
