package io.github.limiter.cdi;

import io.github.limiter.config.ConfigException;
import io.github.limiter.config.HttpSettings;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The client address of a request, keyed as the servlet filter keys it: {@code limiter.http.
 * forwarded-header} (one header, {@code X-Forwarded-For} by default, or {@code Forwarded}) is
 * believed only when the peer is one of {@code limiter.http.trusted-proxies}, walking its hops from
 * the right to the first untrusted one, and stopping at an unreadable hop; an IPv6 client is keyed
 * by its {@code limiter.http.ipv6-prefix}, so one host cannot escape its limit by rotating
 * addresses, and an IPv4-mapped address is its IPv4 address. Keys read {@code ip:192.0.2.7} or
 * {@code ip:2001:db8:1:2::/64} (RFC 5952 text).
 *
 * <p>Text is parsed only as an IP literal, never looked up in DNS.
 */
final class ClientAddress {

  static final String TRUSTED_PROXIES = "limiter.http.trusted-proxies";

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private final List<Cidr> trusted;
  private final int ipv6Prefix;
  private final boolean forwarded;

  /** @throws ConfigException for a bad CIDR */
  ClientAddress(HttpSettings http) {
    List<Cidr> cidrs = new ArrayList<>();
    for (String text : http.trustedProxies()) {
      cidrs.add(Cidr.parse(text));
    }
    this.trusted = List.copyOf(cidrs);
    this.ipv6Prefix = http.ipv6Prefix();
    this.forwarded = http.forwardedHeader() == HttpSettings.ForwardedHeader.FORWARDED;
  }

  /**
   * The key for a request from peer {@code remote}, with {@code headers} giving every value of a
   * header by name.
   */
  String resolve(String remote, Function<String, List<String>> headers) {
    InetAddress peer = literal(remote);
    if (peer == null) {
      return Keys.ADDRESS + remote; // not an IP peer (a Unix socket): the container's text is all there is
    }
    InetAddress client = peer;
    if (!trusted.isEmpty() && isTrusted(peer)) {
      List<String> hops = hops(headers);
      for (int i = hops.size() - 1; i >= 0; i--) {
        InetAddress hop = node(hops.get(i));
        if (hop == null) {
          break; // an obfuscated or malformed hop: the trusted node that wrote it is all we know
        }
        client = hop;
        if (!isTrusted(hop)) {
          break;
        }
      }
    }
    return Keys.ADDRESS + render(client);
  }

  private boolean isTrusted(InetAddress address) {
    for (Cidr cidr : trusted) {
      if (cidr.contains(address)) {
        return true;
      }
    }
    return false;
  }

  private String render(InetAddress address) {
    if (!(address instanceof Inet6Address)) {
      return address.getHostAddress();
    }
    if (ipv6Prefix >= 128) {
      return ipv6Text(address.getAddress());
    }
    return ipv6Text(Cidr.mask(address.getAddress(), ipv6Prefix)) + "/" + ipv6Prefix;
  }

  /** RFC 5952: lower-case groups without leading zeros, the longest run of two or more zero groups as {@code ::}. */
  static String ipv6Text(byte[] bytes) {
    int[] groups = new int[8];
    for (int g = 0; g < 8; g++) {
      groups[g] = ((bytes[2 * g] & 0xff) << 8) | (bytes[2 * g + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLength = 1;
    for (int g = 0; g < 8; g++) {
      int start = g;
      while (g < 8 && groups[g] == 0) {
        g++;
      }
      if (g - start > bestLength) {
        bestStart = start;
        bestLength = g - start;
      }
    }
    StringBuilder text = new StringBuilder(39);
    for (int g = 0; g < 8; g++) {
      if (g == bestStart) {
        text.append("::");
        g += bestLength - 1;
      } else {
        if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
          text.append(':');
        }
        text.append(Integer.toHexString(groups[g]));
      }
    }
    return text.toString();
  }

  /** The hops of the configured header, every line, left to right. */
  private List<String> hops(Function<String, List<String>> headers) {
    List<String> hops = new ArrayList<>();
    for (String line : headers.apply(forwarded ? "Forwarded" : "X-Forwarded-For")) {
      for (String element : line.split(",")) {
        if (!element.isBlank()) {
          hops.add(forwarded ? forParameter(element) : element.trim());
        }
      }
    }
    return hops;
  }

  private static String forParameter(String element) {
    for (String pair : element.split(";")) {
      String trimmed = pair.trim();
      if (trimmed.toLowerCase(Locale.ROOT).startsWith("for=")) {
        String node = trimmed.substring(4).trim();
        if (node.length() >= 2 && node.startsWith("\"") && node.endsWith("\"")) {
          node = node.substring(1, node.length() - 1);
        }
        return node;
      }
    }
    return "";
  }

  /** A hop as proxies write it: an address, optionally with a port ({@code 192.0.2.1:80}, {@code [::1]:443}). */
  private static InetAddress node(String text) {
    String hop = text.trim();
    if (hop.startsWith("[")) {
      int end = hop.indexOf(']');
      if (end < 0 || !(end == hop.length() - 1 || hop.charAt(end + 1) == ':')) {
        return null;
      }
      return literal(hop.substring(1, end));
    }
    int colon = hop.indexOf(':');
    if (colon >= 0 && hop.indexOf(':', colon + 1) < 0) {
      hop = hop.substring(0, colon); // IPv4 with a port
    }
    return literal(hop);
  }

  /** {@code text} as an IP address if it is an IP literal (brackets and zone allowed), else null; never a DNS lookup. */
  static InetAddress literal(String text) {
    if (text == null || text.length() > 128) {
      return null;
    }
    String candidate = text.trim();
    if (candidate.startsWith("[") && candidate.endsWith("]")) {
      candidate = candidate.substring(1, candidate.length() - 1);
    }
    int zone = candidate.indexOf('%');
    if (zone >= 0) {
      candidate = candidate.substring(0, zone);
    }
    if (!IPV4.matcher(candidate).matches() && !IPV6.matcher(candidate).matches()) {
      return null;
    }
    try {
      return InetAddress.getByName(candidate);
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** An address range such as {@code 10.0.0.0/8} or {@code ::1/128}; a bare address is a range of one. */
  private record Cidr(byte[] network, int bits) {

    static Cidr parse(String text) {
      int slash = text.indexOf('/');
      InetAddress address = literal(slash < 0 ? text : text.substring(0, slash));
      int max = address == null ? 0 : address.getAddress().length * 8;
      int bits = max;
      if (address != null && slash >= 0) {
        String suffix = text.substring(slash + 1).trim();
        bits = suffix.matches("\\d{1,3}") ? Integer.parseInt(suffix) : -1;
      }
      if (address == null || bits < 0 || bits > max) {
        throw new ConfigException(TRUSTED_PROXIES,
            "expected CIDRs such as 10.0.0.0/8, 192.168.1.7 or ::1/128, was '" + text + "'");
      }
      return new Cidr(mask(address.getAddress(), bits), bits);
    }

    boolean contains(InetAddress address) {
      byte[] bytes = address.getAddress();
      return bytes.length == network.length && Arrays.equals(mask(bytes, bits), network);
    }

    static byte[] mask(byte[] address, int bits) {
      byte[] masked = address.clone();
      for (int i = 0; i < masked.length; i++) {
        int keep = Math.max(0, Math.min(8, bits - i * 8));
        masked[i] = (byte) (masked[i] & (0xff << (8 - keep)));
      }
      return masked;
    }
  }
}
