package io.github.limiter.internal.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin API's JSON, without a library: writes strings, numbers, booleans, lists and maps, and
 * reads one flat object of string values (a request body), refusing anything else.
 */
final class Json {

  private Json() {}

  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      String comma = "";
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.append(comma);
        string(String.valueOf(entry.getKey()), out);
        out.append(':');
        write(entry.getValue(), out);
        comma = ",";
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      String comma = "";
      for (Object each : list) {
        out.append(comma);
        write(each, out);
        comma = ",";
      }
      out.append(']');
    } else {
      string(value.toString(), out);
    }
  }

  private static void string(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20 || c == '<' || c == '>' || c == '&' || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * The members of a JSON object whose values are strings (or null).
   *
   * @throws IllegalArgumentException saying what is wrong, for anything else
   */
  static Map<String, String> readObject(String text) {
    Parser p = new Parser(text.strip());
    Map<String, String> members = new LinkedHashMap<>();
    p.expect('{');
    p.space();
    if (!p.take('}')) {
      do {
        p.space();
        String name = p.string();
        p.space();
        p.expect(':');
        p.space();
        members.put(name, p.nullable());
        p.space();
      } while (p.take(','));
      p.expect('}');
    }
    p.space();
    if (!p.atEnd()) {
      throw new IllegalArgumentException("expected one JSON object of strings, was '" + text + "'");
    }
    return members;
  }

  private static final class Parser {
    final String text;
    int at;

    Parser(String text) {
      this.text = text;
    }

    boolean atEnd() {
      return at == text.length();
    }

    void space() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
        at++;
      }
    }

    boolean take(char c) {
      if (at < text.length() && text.charAt(at) == c) {
        at++;
        return true;
      }
      return false;
    }

    void expect(char c) {
      if (!take(c)) {
        throw new IllegalArgumentException(
            "expected one JSON object of strings such as {\"limits\": \"10/s\"}, was '"
                + text
                + "'");
      }
    }

    String nullable() {
      if (text.startsWith("null", at)) {
        at += 4;
        return null;
      }
      return string();
    }

    String string() {
      expect('"');
      StringBuilder out = new StringBuilder();
      while (at < text.length() && text.charAt(at) != '"') {
        char c = text.charAt(at++);
        if (c == '\\' && at < text.length()) {
          char e = text.charAt(at++);
          switch (e) {
            case 'n' -> out.append('\n');
            case 't' -> out.append('\t');
            case 'u' -> {
              if (at + 4 > text.length()) {
                expect('"');
              }
              out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
              at += 4;
            }
            default -> out.append(e);
          }
        } else {
          out.append(c);
        }
      }
      expect('"');
      return out.toString();
    }
  }
}
