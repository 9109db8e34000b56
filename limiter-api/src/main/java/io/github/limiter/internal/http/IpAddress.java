package io.github.limiter.internal.http;

import java.util.Arrays;

/**
 * IP address literals parsed by hand, so that untrusted text never reaches {@code
 * InetAddress.getByName} (which would resolve a host name through DNS). Addresses are 4 or 16
 * bytes; an IPv4-mapped IPv6 address ({@code ::ffff:192.0.2.1}) is returned as its 4 IPv4 bytes.
 */
final class IpAddress {

  /** Longer text cannot be an address (with a zone and brackets), so it is rejected at once. */
  private static final int MAX_TEXT = 128;

  private IpAddress() {}

  /**
   * Parses an IPv4 or IPv6 literal, optionally in brackets and with an IPv6 zone ({@code
   * fe80::1%eth0}, the zone dropped: it is local to the host that wrote it). Null if the text is
   * not exactly a literal.
   */
  static byte[] parse(String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_TEXT) {
      return null;
    }
    String s = text;
    if (s.charAt(0) == '[') {
      if (s.charAt(s.length() - 1) != ']') {
        return null;
      }
      s = s.substring(1, s.length() - 1);
      if (s.indexOf(':') < 0) {
        return null;
      }
    }
    if (s.indexOf(':') < 0) {
      return parseIpv4(s, 0, s.length());
    }
    int zone = s.indexOf('%');
    if (zone >= 0) {
      if (!isZone(s, zone + 1)) {
        return null;
      }
      s = s.substring(0, zone);
    }
    byte[] v6 = parseIpv6(s);
    return v6 == null ? null : unmapped(v6);
  }

  /**
   * Parses one hop as proxies write it: an address, optionally with a port ({@code 192.0.2.1:8080},
   * {@code [2001:db8::1]:443}). Null for anything else, including {@code unknown} and RFC 7239
   * obfuscated identifiers such as {@code _hidden}.
   */
  static byte[] parseNode(String text) {
    if (text == null) {
      return null;
    }
    String s = text.strip();
    if (s.isEmpty() || s.length() > MAX_TEXT) {
      return null;
    }
    if (s.charAt(0) == '[') {
      int close = s.indexOf(']');
      if (close < 0 || !isPort(s, close + 1)) {
        return null;
      }
      return parse(s.substring(0, close + 1));
    }
    int colon = s.indexOf(':');
    if (colon >= 0 && s.indexOf(':', colon + 1) < 0) {
      // One colon: IPv4 with a port.
      return isPort(s, colon) ? parseIpv4(s, 0, colon) : null;
    }
    return parse(s);
  }

  /**
   * Whether {@code s} from {@code at} is empty or {@code :} followed by 1-5 digits or an obfuscated
   * port.
   */
  private static boolean isPort(String s, int at) {
    if (at == s.length()) {
      return true;
    }
    if (s.charAt(at) != ':' || at + 1 == s.length() || s.length() - at - 1 > 16) {
      return false;
    }
    boolean obfuscated = s.charAt(at + 1) == '_';
    for (int i = at + (obfuscated ? 2 : 1); i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          c >= '0' && c <= '9'
              || obfuscated && (Character.isLetter(c) || c == '.' || c == '-' || c == '_');
      if (!ok || c > 0x7f) {
        return false;
      }
    }
    return obfuscated || s.length() - at - 1 <= 5;
  }

  private static boolean isZone(String s, int from) {
    if (from >= s.length()) {
      return false;
    }
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= 'a' && c <= 'z'
          || c >= 'A' && c <= 'Z'
          || c >= '0' && c <= '9'
          || c == '.'
          || c == '_'
          || c == '-'
          || c == '~')) {
        return false;
      }
    }
    return true;
  }

  /** Four decimal parts 0-255 without leading zeros (which some parsers read as octal). */
  private static byte[] parseIpv4(String s, int from, int to) {
    byte[] out = new byte[4];
    int part = 0;
    int i = from;
    while (part < 4) {
      int start = i;
      int value = 0;
      while (i < to && i - start < 3 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        value = value * 10 + (s.charAt(i) - '0');
        i++;
      }
      int digits = i - start;
      if (digits == 0 || value > 255 || digits > 1 && s.charAt(start) == '0') {
        return null;
      }
      out[part++] = (byte) value;
      if (part < 4) {
        if (i >= to || s.charAt(i) != '.') {
          return null;
        }
        i++;
      }
    }
    return i == to ? out : null;
  }

  /** Eight groups of 1-4 hex digits, one {@code ::} at most, an IPv4 tail allowed. */
  private static byte[] parseIpv6(String s) {
    byte[] out = new byte[16];
    int len = s.length();
    if (len < 2) {
      return null;
    }
    int groups = 0;
    int gap = -1;
    int i = 0;
    if (s.startsWith("::")) {
      gap = 0;
      i = 2;
      if (i == len) {
        return out;
      }
    } else if (s.charAt(0) == ':') {
      return null;
    }
    while (i < len) {
      if (groups == 8) {
        return null;
      }
      int start = i;
      int value = 0;
      while (i < len && i - start < 5 && hex(s.charAt(i)) >= 0) {
        value = (value << 4) | hex(s.charAt(i));
        i++;
      }
      if (i < len && s.charAt(i) == '.') {
        // IPv4 tail: the last 32 bits.
        if (groups > 6) {
          return null;
        }
        byte[] v4 = parseIpv4(s, start, len);
        if (v4 == null) {
          return null;
        }
        System.arraycopy(v4, 0, out, groups * 2, 4);
        groups += 2;
        i = len;
        break;
      }
      int digits = i - start;
      if (digits == 0 || digits > 4) {
        return null;
      }
      out[groups * 2] = (byte) (value >>> 8);
      out[groups * 2 + 1] = (byte) value;
      groups++;
      if (i == len) {
        break;
      }
      if (s.charAt(i) != ':') {
        return null;
      }
      i++;
      if (i < len && s.charAt(i) == ':') {
        if (gap >= 0) {
          return null;
        }
        gap = groups;
        i++;
        if (i == len) {
          break;
        }
      } else if (i == len) {
        return null; // a trailing single colon
      }
    }
    if (gap < 0) {
      return groups == 8 ? out : null;
    }
    if (groups == 8) {
      return null; // '::' must stand for at least one group
    }
    int tail = groups - gap;
    System.arraycopy(out, gap * 2, out, 16 - tail * 2, tail * 2);
    Arrays.fill(out, gap * 2, 16 - tail * 2, (byte) 0);
    return out;
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  /** {@code ::ffff:a.b.c.d} as the IPv4 address it stands for; anything else unchanged. */
  static byte[] unmapped(byte[] v6) {
    if (v6.length != 16) {
      return v6;
    }
    for (int i = 0; i < 10; i++) {
      if (v6[i] != 0) {
        return v6;
      }
    }
    if (v6[10] != (byte) 0xff || v6[11] != (byte) 0xff) {
      return v6;
    }
    return new byte[] {v6[12], v6[13], v6[14], v6[15]};
  }

  /** A copy of {@code address} with all but the first {@code prefix} bits cleared. */
  static byte[] masked(byte[] address, int prefix) {
    byte[] out = address.clone();
    for (int bit = prefix; bit < out.length * 8; bit++) {
      out[bit >>> 3] &= (byte) ~(0x80 >>> (bit & 7));
    }
    return out;
  }

  /**
   * The canonical text: dotted IPv4, or RFC 5952 IPv6 (lower case, longest zero run as {@code ::}).
   */
  static String format(byte[] a) {
    if (a.length == 4) {
      return (a[0] & 0xff) + "." + (a[1] & 0xff) + "." + (a[2] & 0xff) + "." + (a[3] & 0xff);
    }
    int bestStart = -1;
    int bestLength = 1; // a single zero group is not compressed
    for (int g = 0; g < 8; ) {
      if (group(a, g) != 0) {
        g++;
        continue;
      }
      int start = g;
      while (g < 8 && group(a, g) == 0) {
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
        continue;
      }
      if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
        text.append(':');
      }
      text.append(Integer.toHexString(group(a, g)));
    }
    return text.toString();
  }

  private static int group(byte[] a, int g) {
    return (a[2 * g] & 0xff) << 8 | (a[2 * g + 1] & 0xff);
  }
}
