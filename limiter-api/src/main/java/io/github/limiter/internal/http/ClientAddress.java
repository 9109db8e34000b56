package io.github.limiter.internal.http;

import io.github.limiter.RequestView;
import io.github.limiter.internal.http.HttpSettings.ForwardedHeader;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.function.Function;

/**
 * Finds the client address key of a request ({@code ip:192.0.2.7}, {@code ip:2001:db8:1:2::/64}),
 * believing {@code X-Forwarded-For} or RFC 7239 {@code Forwarded} (whichever {@code
 * limiter.http.forwarded-header} names; never the other) only as far as the trusted proxies of
 * {@code limiter.http.trusted-proxies} vouch for it. Both HTTP adapters call it, so a client is one
 * key whichever of them charges it.
 *
 * <p>The walk: if the direct peer is not a trusted proxy, the peer is the client and the headers
 * are ignored. Otherwise the hops are read from right to left; each one was written by the trusted
 * node to its right, so it is believed; the first hop that is not itself trusted is the client. The
 * walk stops early at a hop that cannot be read (garbage, {@code unknown}, an obfuscated
 * identifier): the client is then the trusted node that wrote it, the last address the walk could
 * establish. If every hop is trusted, the leftmost is the client: it is itself a trusted address,
 * vouched for by the trusted node next to it. A client outside the trusted networks can therefore
 * never choose its key; only a host inside them can, so they must hold proxies only.
 *
 * <p>Text is parsed only as an IP literal, never looked up in DNS; ports and IPv6 zones are
 * dropped. IPv6 clients are grouped by {@code limiter.http.ipv6-prefix} (a /64 is typically one
 * subscriber), and IPv4-mapped IPv6 counts as IPv4. Malformed input never throws. Thread-safe.
 */
public final class ClientAddress {

  private final Cidr[] trusted;
  private final int ipv6Prefix;
  private final ForwardedHeader header;

  /** The client addresses that {@code http} describes (its CIDRs were checked when it was made). */
  public ClientAddress(HttpSettings http) {
    this.trusted = http.trustedNetworks().toArray(new Cidr[0]);
    this.ipv6Prefix = http.ipv6Prefix();
    this.header = http.forwardedHeader();
  }

  /** The header this instance believes, so that an adapter reads only that one. */
  public String headerName() {
    return header.headerName();
  }

  /** The client address key of {@code request}; the constant key outside an HTTP request. */
  public String key(RequestView request) {
    String peer = request.remoteAddress();
    return peer == null ? ClientKeys.CONSTANT : key(peer, request::headers);
  }

  /**
   * The key of the client of a request from {@code peer} (the direct peer's address, as the
   * container wrote it), with {@code headers} giving every line of a header by name (null or empty
   * when absent). A peer that is not an IP literal (a Unix socket) is keyed by its text.
   */
  public String key(String peer, Function<String, ? extends Enumeration<String>> headers) {
    if (trusted.length == 0 && peer != null && peer.indexOf(':') < 0 && peer.indexOf('[') < 0) {
      // The common case: no proxies, an IPv4 peer as the container wrote it.
      return ClientKeys.ADDRESS + peer;
    }
    byte[] address = IpAddress.parse(peer);
    if (address == null) {
      return ClientKeys.ADDRESS + peer;
    }
    return ClientKeys.ADDRESS
        + group(trusted.length == 0 || !isTrusted(address) ? address : walk(headers, address));
  }

  /**
   * Whether the direct peer {@code peer} is one of {@code limiter.http.trusted-proxies}: only such
   * a peer may tell what the client is (a plan from a header, say).
   */
  public boolean isTrustedPeer(String peer) {
    byte[] address = IpAddress.parse(peer);
    return address != null && isTrusted(address);
  }

  private byte[] walk(Function<String, ? extends Enumeration<String>> headers, byte[] peer) {
    List<String> hops = hops(headers);
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

  /**
   * The hops of every header line, left to right; null for an unreadable {@code Forwarded} element.
   */
  private List<String> hops(Function<String, ? extends Enumeration<String>> headers) {
    List<String> hops = new ArrayList<>();
    Enumeration<String> lines = headers.apply(header.headerName());
    while (lines != null && lines.hasMoreElements()) {
      String line = lines.nextElement();
      if (line == null) {
        continue;
      }
      if (header == ForwardedHeader.FORWARDED) {
        ForwardedElements.forNodes(line, hops);
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
