package io.github.limiter.cdi;

/**
 * The text of keys, the same as the servlet filter's: each source has its own prefix, so that a
 * header value such as {@code 192.0.2.7} never shares a counter with the client of that address,
 * and a policy counts one bucket per client whichever adapter charges it.
 */
final class Keys {

  static final String ADDRESS = "ip:";
  static final String HEADER = "h:";
  static final String PRINCIPAL = "p:";
  static final String RESOLVER = "r:";
  /** Method parameters: only the interceptor has them. */
  static final String PARAMETER = "a:";
  /** The one key of {@code constant}, and of web sources outside a web request. */
  static final String CONSTANT = "c:global";

  private Keys() {}

  /** {@code prefix + value} as it is, or null for a value that is null or blank (principals, resolvers). */
  static String exactly(String prefix, String value) {
    return value == null || value.isBlank() ? null : prefix + value;
  }

  /** {@code prefix + value} stripped, or null for one that is null, blank or holds control characters (headers, parameters). */
  static String of(String prefix, String value) {
    if (value == null) {
      return null;
    }
    String key = value.strip();
    if (key.isEmpty()) {
      return null;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return null;
      }
    }
    return prefix + key;
  }
}
