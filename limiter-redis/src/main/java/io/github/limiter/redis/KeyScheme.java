package io.github.limiter.redis;

/**
 * Redis key names: {@code <prefix>{<policy>:<escaped client key>}:<algorithm><limit index>}.
 *
 * <p>The braces are a hash tag, so every key of one decision lands in one cluster slot and one
 * script call can touch them all. Policy names contain no ':', '{' or '}', and the client key is
 * escaped so that it contains no brace either: the tag always ends where this class put its brace,
 * and two different (policy, key) pairs never give the same name. The algorithm code keeps a policy
 * that changes algorithm from reading state of the wrong shape.
 */
final class KeyScheme {

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private final String prefix;

  KeyScheme(String prefix) {
    this.prefix = validPrefix(prefix);
  }

  static String validPrefix(String prefix) {
    if (prefix == null || prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
      throw new IllegalArgumentException(
          "key prefix must not contain '{' or '}', was '" + prefix + "'");
    }
    return prefix;
  }

  String prefix() {
    return prefix;
  }

  /** The part before the client key: {@code <prefix>{<policy>:}. */
  String head(String policy) {
    return prefix + "{" + policy + ":";
  }

  /** The hash-tagged part, up to and including the closing brace and ':'. */
  static String tag(String head, String clientKey) {
    StringBuilder key = new StringBuilder(head.length() + clientKey.length() + 8).append(head);
    escape(clientKey, key);
    return key.append("}:").toString();
  }

  /**
   * Printable ASCII but '%', '{' and '}' stays as is; every other UTF-16 unit becomes {@code
   * %XXXX}. Injective: each '%' in the output starts exactly one escape.
   */
  static void escape(String clientKey, StringBuilder out) {
    for (int i = 0; i < clientKey.length(); i++) {
      char c = clientKey.charAt(i);
      if (c > ' ' && c < 0x7f && c != '%' && c != '{' && c != '}') {
        out.append(c);
      } else {
        out.append('%')
            .append(HEX[(c >> 12) & 0xf])
            .append(HEX[(c >> 8) & 0xf])
            .append(HEX[(c >> 4) & 0xf])
            .append(HEX[c & 0xf]);
      }
    }
  }
}
