package io.github.limiter.internal.log;

/**
 * Values in log lines, written so that no value can forge a line: a key, a policy name, a path or a
 * message that a client or an operator chose is logged through here, never as it came. Line breaks
 * and every other control or format character (a bidi override, say) are written as escapes ({@code
 * \n}, {@code \r}, {@code \t}, else a Java-style Unicode escape), and so is the backslash, so that
 * an escape in the log always means one character of the value.
 */
public final class LogText {

  private LogText() {}

  /**
   * {@code value} between single quotes, escaped, a quote inside it too ({@code \'}): where the
   * value ends is never in doubt. Null is written {@code null}.
   */
  public static String quote(Object value) {
    return value == null ? "null" : escape(String.valueOf(value), true);
  }

  /**
   * {@code text} escaped, without quotes: for a message that quotes its values itself, such as an
   * exception's. Null is written {@code null}.
   */
  public static String escape(Object text) {
    return text == null ? "null" : escape(String.valueOf(text), false);
  }

  private static String escape(String text, boolean quoted) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String escaped = escaped(c, quoted);
      if (escaped != null && out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (out != null) {
        if (escaped != null) {
          out.append(escaped);
        } else {
          out.append(c);
        }
      }
    }
    String body = out == null ? text : out.toString();
    return quoted ? "'" + body + "'" : body;
  }

  /** The escape of {@code c}, or null to keep it. */
  private static String escaped(char c, boolean quoted) {
    return switch (c) {
      case '\\' -> "\\\\";
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      case '\'' -> quoted ? "\\'" : null;
      default -> {
        int type = Character.getType(c);
        yield type == Character.CONTROL
                || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
            ? String.format("\\u%04x", (int) c)
            : null;
      }
    };
  }
}
