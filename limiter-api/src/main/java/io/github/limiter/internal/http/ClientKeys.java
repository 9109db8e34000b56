package io.github.limiter.internal.http;

/**
 * The text of rate-limit keys, one scheme for every adapter, so that a policy counts one bucket per
 * client whichever adapter charges it. Each source has its own prefix, so that a header value such
 * as {@code 192.0.2.7} never shares a counter with the client at that address:
 *
 * <pre>
 * ip:192.0.2.7, ip:2001:db8:1:2::/64   the client address ({@link ClientAddress})
 * h:VALUE                              a request header
 * p:NAME                               the authenticated principal
 * r:KEY                                a key resolver's answer
 * a:VALUE                              a method parameter (the CDI interceptor)
 * c:global                             one key for everyone
 * </pre>
 *
 * Each method returns null when the value is no key: the policy's {@code on-missing-key} then
 * applies.
 */
public final class ClientKeys {

  public static final String ADDRESS = "ip:";
  public static final String HEADER = "h:";
  public static final String PRINCIPAL = "p:";
  public static final String RESOLVER = "r:";
  public static final String PARAMETER = "a:";

  /** The one key of {@code constant}, and of web sources outside a web request. */
  public static final String CONSTANT = "c:global";

  private ClientKeys() {}

  /** A header value as a key, stripped; null if it is null, blank or holds control characters. */
  public static String header(String value) {
    return stripped(HEADER, value);
  }

  /** A method parameter's text as a key, stripped; null as for {@link #header}. */
  public static String parameter(String value) {
    return stripped(PARAMETER, value);
  }

  /** A principal's name as a key, as it is; null if it is null or blank. */
  public static String principal(String name) {
    return exactly(PRINCIPAL, name);
  }

  /** A resolver's answer as a key, as it is; null if it is null or blank. */
  public static String resolver(String key) {
    return exactly(RESOLVER, key);
  }

  private static String exactly(String prefix, String value) {
    return value == null || value.isBlank() ? null : prefix + value;
  }

  private static String stripped(String prefix, String value) {
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
