package io.github.limiter.internal.http;

import java.util.List;

/**
 * Reads the {@code for=} node of each element of an RFC 7239 {@code Forwarded} header, such as
 * {@code for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"}. Malformed input never throws:
 * an element that cannot be read yields null, and so does one without {@code for=}.
 */
final class ForwardedElements {

  private ForwardedElements() {}

  /**
   * Appends the {@code for=} value of each element of {@code value} to {@code out}, null where
   * unreadable.
   */
  static void forNodes(String value, List<String> out) {
    int i = 0;
    int n = value.length();
    while (i <= n) {
      // One element: pairs separated by ';', ended by ',' outside quotes.
      String node = null;
      boolean broken = false;
      boolean any = false;
      for (; ; ) {
        i = skipSpace(value, i);
        int nameStart = i;
        while (i < n && isTokenChar(value.charAt(i))) {
          i++;
        }
        String name = value.substring(nameStart, i);
        i = skipSpace(value, i);
        if (name.isEmpty() || i >= n || value.charAt(i) != '=') {
          broken |= !name.isEmpty() || i < n && value.charAt(i) != ',';
          break;
        }
        i = skipSpace(value, i + 1);
        String parsed;
        if (i < n && value.charAt(i) == '"') {
          StringBuilder text = new StringBuilder();
          i++;
          boolean closed = false;
          while (i < n) {
            char c = value.charAt(i++);
            if (c == '\\' && i < n) {
              text.append(value.charAt(i++));
            } else if (c == '"') {
              closed = true;
              break;
            } else {
              text.append(c);
            }
          }
          if (!closed) {
            broken = true;
            break;
          }
          parsed = text.toString();
        } else {
          int start = i;
          while (i < n && isTokenChar(value.charAt(i))) {
            i++;
          }
          parsed = value.substring(start, i);
          if (parsed.isEmpty()) {
            broken = true;
            break;
          }
        }
        any = true;
        if (name.equalsIgnoreCase("for")) {
          if (node != null) {
            broken = true; // two for= in one element: ambiguous
          }
          node = parsed;
        }
        i = skipSpace(value, i);
        if (i < n && value.charAt(i) == ';') {
          i++;
          continue;
        }
        if (i < n && value.charAt(i) != ',') {
          broken = true;
        }
        break;
      }
      // Skip to the end of this element if it was broken midway.
      if (broken) {
        i = nextComma(value, i);
      }
      if (any || broken) {
        out.add(broken ? null : node);
      }
      if (i >= n) {
        return;
      }
      i++; // past ','
    }
  }

  private static int nextComma(String value, int from) {
    boolean quoted = false;
    for (int i = from; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        return i;
      }
    }
    return value.length();
  }

  private static int skipSpace(String value, int i) {
    while (i < value.length() && (value.charAt(i) == ' ' || value.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  /** RFC 9110 tchar, plus ':' '[' ']' which some proxies write unquoted around IPv6 nodes. */
  private static boolean isTokenChar(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || "!#$%&'*+-.^_`|~:[]".indexOf(c) >= 0;
  }
}
