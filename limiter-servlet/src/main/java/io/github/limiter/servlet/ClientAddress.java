package io.github.limiter.servlet;

import io.github.limiter.config.HttpSettings.ForwardedHeader;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * Finds the client address of a request, believing {@code X-Forwarded-For} or {@code Forwarded}
 * only as far as trusted proxies vouch for it.
 *
 * <p>The walk: if the direct peer is not a trusted proxy, the peer is the client and the headers
 * are ignored. Otherwise the hops are read from right to left; each one was written by the trusted
 * node to its right, so it is believed; the first hop that is not itself trusted is the client.
 * The walk stops early at a hop that cannot be read (garbage, {@code unknown}, an obfuscated
 * identifier): the client is then the trusted node that wrote it, the last address the walk could
 * establish. If every hop is trusted, the leftmost is the client: it is itself a trusted address,
 * vouched for by the trusted node next to it. A client outside the trusted networks can therefore
 * never choose its key; only a host inside them can, so they must hold proxies only.
 *
 * <p>Keys group IPv6 clients by prefix (a /64 is typically one subscriber), and treat IPv4-mapped
 * IPv6 as IPv4.
 */
final class ClientAddress {

  static final String KEY_PREFIX = "ip:";

  private final Cidr[] trusted;
  private final int ipv6Prefix;
  private final ForwardedHeader header;

  /** @param trusted CIDRs, valid already (the core checked them) */
  ClientAddress(List<String> trusted, int ipv6Prefix, ForwardedHeader header) {
    this.trusted = trusted.stream().map(Cidr::parse).toArray(Cidr[]::new);
    this.ipv6Prefix = ipv6Prefix;
    this.header = header;
  }

  /** The rate-limit key of the request's client, e.g. {@code ip:192.0.2.7} or {@code ip:2001:db8::/64}. */
  String key(HttpServletRequest request) {
    String peerText = request.getRemoteAddr();
    if (trusted.length == 0 && peerText != null && peerText.indexOf(':') < 0 && peerText.indexOf('[') < 0) {
      // The common case: no proxies, an IPv4 peer as the container wrote it.
      return KEY_PREFIX + peerText;
    }
    byte[] peer = IpAddress.parse(peerText);
    if (peer == null) {
      // Not an IP peer (e.g. a Unix socket): the container's text is all there is.
      return KEY_PREFIX + peerText;
    }
    return KEY_PREFIX + group(trusted.length == 0 || !isTrusted(peer) ? peer : walk(request, peer));
  }

  private byte[] walk(HttpServletRequest request, byte[] peer) {
    List<String> hops = hops(request);
    byte[] current = peer;
    for (int i = hops.size() - 1; i >= 0; i--) {
      byte[] hop = IpAddress.parseNode(hops.get(i));
      if (hop == null) {
        return current;
      }
      if (!isTrusted(hop)) {
        return hop;
      }
      current = hop;
    }
    return current;
  }

  /** The hops of every header line, left to right; null for an unreadable {@code Forwarded} element. */
  private List<String> hops(HttpServletRequest request) {
    List<String> hops = new ArrayList<>();
    Enumeration<String> lines = request.getHeaders(header.headerName());
    while (lines != null && lines.hasMoreElements()) {
      String line = lines.nextElement();
      if (line == null) {
        continue;
      }
      if (header == ForwardedHeader.FORWARDED) {
        io.github.limiter.servlet.ForwardedHeader.forNodes(line, hops);
      } else {
        for (String part : line.split(",", -1)) {
          if (!part.isBlank()) {
            hops.add(part);
          }
        }
      }
    }
    return hops;
  }

  private boolean isTrusted(byte[] address) {
    for (Cidr cidr : trusted) {
      if (cidr.contains(address)) {
        return true;
      }
    }
    return false;
  }

  private String group(byte[] address) {
    if (address.length == 4 || ipv6Prefix >= 128) {
      return IpAddress.format(address);
    }
    return IpAddress.format(IpAddress.masked(address, ipv6Prefix)) + "/" + ipv6Prefix;
  }
}
