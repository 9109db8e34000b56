package io.github.limiter.internal.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for checking response bodies: objects, arrays, strings, numbers,
 * literals.
 */
final class MiniJson {

  private final String text;
  private int at;

  private MiniJson(String text) {
    this.text = text;
  }

  /**
   * Parses a whole document; throws IllegalArgumentException on anything that is not valid JSON.
   */
  static Object parse(String text) {
    MiniJson json = new MiniJson(text);
    Object value = json.value();
    json.space();
    if (json.at != text.length()) {
      throw json.error("end of document");
    }
    return value;
  }

  private Object value() {
    space();
    if (at >= text.length()) {
      throw error("a value");
    }
    char c = text.charAt(at);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> number();
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> object = new LinkedHashMap<>();
    at++;
    space();
    if (peek('}')) {
      at++;
      return object;
    }
    do {
      space();
      String key = string();
      space();
      expect(':');
      if (object.put(key, value()) != null) {
        throw error("no duplicate key '" + key + "'");
      }
      space();
    } while (consume(','));
    expect('}');
    return object;
  }

  private List<Object> array() {
    List<Object> array = new ArrayList<>();
    at++;
    space();
    if (peek(']')) {
      at++;
      return array;
    }
    do {
      array.add(value());
      space();
    } while (consume(','));
    expect(']');
    return array;
  }

  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        throw error("no control character in a string");
      }
      if (c == '\\') {
        char e = text.charAt(at++);
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
            at += 4;
          }
          default -> throw error("a valid escape");
        }
      } else {
        out.append(c);
      }
    }
    throw error("a closing quote");
  }

  private Object number() {
    int start = at;
    if (peek('-')) {
      at++;
    }
    while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    String digits = text.substring(start, at);
    if (!digits.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
      throw error("a number");
    }
    return digits.contains(".") || digits.contains("e") || digits.contains("E")
        ? (Object) Double.parseDouble(digits)
        : (Object) Long.parseLong(digits);
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw error(word);
    }
    at += word.length();
    return value;
  }

  private void space() {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private boolean consume(char c) {
    if (peek(c)) {
      at++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!consume(c)) {
      throw error("'" + c + "'");
    }
  }

  private IllegalArgumentException error(String expected) {
    return new IllegalArgumentException("expected " + expected + " at " + at + " in " + text);
  }
}
