package io.github.limiter.cdi;

import io.github.limiter.config.ConfigException;
import io.github.limiter.config.HttpSettings;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The client address of a request under {@code limiter.http.trusted-proxies} and {@code
 * limiter.http.ipv6-prefix}: {@code Forwarded} and {@code X-Forwarded-For} are believed only when
 * the peer is a trusted proxy, walking the hops from the right to the first untrusted one; an IPv6
 * client is keyed by its prefix, so one host cannot escape its limit by rotating addresses.
 *
 * <p>Text is parsed only as an IP literal, never looked up in DNS.
 */
final class ClientAddress {

  static final String TRUSTED_PROXIES = "limiter.http.trusted-proxies";

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private final List<Cidr> trusted;
  private final int ipv6Prefix;

  /** @throws ConfigException for {@code limiter.http.trusted-proxies} naming a bad CIDR */
  ClientAddress(HttpSettings http) {
    List<Cidr> cidrs = new ArrayList<>();
    for (String text : http.trustedProxies()) {
      cidrs.add(Cidr.parse(text));
    }
    this.trusted = List.copyOf(cidrs);
    this.ipv6Prefix = http.ipv6Prefix();
  }

  /**
   * The key for a request from peer {@code remote}, with {@code headers} giving every value of a
   * header by name.
   */
  String resolve(String remote, Function<String, List<String>> headers) {
    InetAddress peer = literal(remote);
    if (peer == null) {
      return remote;
    }
    InetAddress client = peer;
    if (!trusted.isEmpty() && isTrusted(peer)) {
      List<String> hops = forwardedFor(headers);
      for (int i = hops.size() - 1; i >= 0; i--) {
        InetAddress hop = literal(hops.get(i));
        if (hop == null) {
          break; // an obfuscated or malformed hop: the last trusted proxy is all we know
        }
        client = hop;
        if (!isTrusted(hop)) {
          break;
        }
      }
    }
    return render(client);
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
    if (!(address instanceof Inet6Address) || ipv6Prefix >= 128) {
      return address.getHostAddress();
    }
    byte[] bytes = Cidr.mask(address.getAddress(), ipv6Prefix);
    try {
      return InetAddress.getByAddress(bytes).getHostAddress() + "/" + ipv6Prefix;
    } catch (UnknownHostException e) {
      throw new IllegalStateException("16 bytes are an IPv6 address", e);
    }
  }

  /** The hops of {@code Forwarded} (RFC 7239) if present, else of {@code X-Forwarded-For}, left to right. */
  private static List<String> forwardedFor(Function<String, List<String>> headers) {
    List<String> hops = new ArrayList<>();
    List<String> forwarded = headers.apply("Forwarded");
    if (!forwarded.isEmpty()) {
      for (String value : forwarded) {
        for (String element : value.split(",")) {
          hops.add(forParameter(element));
        }
      }
      return hops;
    }
    for (String value : headers.apply("X-Forwarded-For")) {
      for (String hop : value.split(",")) {
        hops.add(hop.trim());
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
        if (node.startsWith("[")) {
          int end = node.indexOf(']');
          return end < 0 ? "" : node.substring(1, end);
        }
        int colon = node.indexOf(':');
        return colon >= 0 && node.indexOf(':', colon + 1) < 0 ? node.substring(0, colon) : node;
      }
    }
    return "";
  }

  /** {@code text} as an IP address if it is an IP literal, else null; never a DNS lookup. */
  static InetAddress literal(String text) {
    if (text == null) {
      return null;
    }
    String candidate = text.trim();
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
      return bytes.length == network.length && java.util.Arrays.equals(mask(bytes, bits), network);
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
