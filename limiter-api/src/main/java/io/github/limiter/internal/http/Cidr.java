package io.github.limiter.internal.http;

import java.util.Arrays;

/**
 * One network such as {@code 10.0.0.0/8} or {@code ::1/128}; a bare address is a single host. The
 * entries of {@code limiter.http.trusted-proxies}, parsed as literals without any DNS lookup.
 */
public final class Cidr {

  private final byte[] network;
  private final int prefix;

  private Cidr(byte[] network, int prefix) {
    this.network = IpAddress.masked(network, prefix);
    this.prefix = prefix;
  }

  /**
   * Parses {@code address[/prefix]}. An IPv4-mapped IPv6 network ({@code ::ffff:10.0.0.0/104}) is
   * the IPv4 network it stands for, since mapped client addresses are compared as IPv4.
   *
   * @throws IllegalArgumentException naming the bad text
   */
  public static Cidr parse(String text) {
    String trimmed = text.trim();
    int slash = trimmed.indexOf('/');
    String host = slash < 0 ? trimmed : trimmed.substring(0, slash);
    // The literal is parsed as IPv6 first so that a mapped network keeps its 128-bit prefix length.
    byte[] address =
        host.indexOf(':') >= 0 && host.indexOf('%') < 0 ? raw(host) : IpAddress.parse(host);
    if (address == null) {
      throw bad(trimmed);
    }
    int max = address.length * 8;
    int prefix = max;
    if (slash >= 0) {
      String digits = trimmed.substring(slash + 1);
      if (!digits.matches("\\d{1,3}")) {
        throw bad(trimmed);
      }
      prefix = Integer.parseInt(digits);
      if (prefix > max) {
        throw bad(trimmed);
      }
    }
    byte[] unmapped = IpAddress.unmapped(address);
    if (unmapped.length == 4 && address.length == 16) {
      if (prefix < 96) {
        throw bad(trimmed);
      }
      return new Cidr(unmapped, prefix - 96);
    }
    return new Cidr(address, prefix);
  }

  /** The 16 bytes of an IPv6 literal without turning a mapped address into IPv4. */
  private static byte[] raw(String host) {
    byte[] parsed = IpAddress.parse(host);
    if (parsed == null || parsed.length == 16) {
      return parsed;
    }
    byte[] mapped = new byte[16];
    mapped[10] = (byte) 0xff;
    mapped[11] = (byte) 0xff;
    System.arraycopy(parsed, 0, mapped, 12, 4);
    return mapped;
  }

  private static IllegalArgumentException bad(String text) {
    return new IllegalArgumentException(
        "expected CIDRs such as 10.0.0.0/8, 192.168.1.7 or ::1/128, was '" + text + "'");
  }

  /** Whether {@code address} (4 or 16 bytes, IPv4-mapped already unmapped) lies in this network. */
  public boolean contains(byte[] address) {
    if (address.length != network.length) {
      return false;
    }
    int full = prefix >>> 3;
    for (int i = 0; i < full; i++) {
      if (address[i] != network[i]) {
        return false;
      }
    }
    int rest = prefix & 7;
    if (rest == 0) {
      return true;
    }
    int mask = (0xff << (8 - rest)) & 0xff;
    return (address[full] & mask) == (network[full] & 0xff);
  }

  @Override
  public String toString() {
    return IpAddress.format(network) + "/" + prefix;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cidr c && prefix == c.prefix && Arrays.equals(network, c.network);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(network) * 31 + prefix;
  }
}
