package io.github.limiter.internal.config;

import io.github.limiter.internal.names.ConfigNames;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a policy takes the client identity from, as written in {@code limiter.policy.<name>.key}.
 *
 * @param kind the kind of source
 * @param argument the header name or resolver name; empty for the other kinds
 */
public record KeySource(Kind kind, String argument) {

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]+");

  /** The kinds of key source. */
  public enum Kind {
    /** The client address, through trusted proxies only; IPv6 grouped by prefix. The default. */
    REMOTE_ADDRESS("remote-address"),
    /** A request header such as an API key: {@code header:X-Api-Key}. */
    HEADER("header"),
    /** The authenticated principal's name. */
    PRINCIPAL("principal"),
    /** One key for everyone: a global limit. */
    CONSTANT("constant"),
    /**
     * A user-supplied resolver, found as a CDI bean or through ServiceLoader: {@code
     * resolver:tenant}.
     */
    RESOLVER("resolver");

    private final String configName;

    Kind(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }
  }

  public static final KeySource REMOTE_ADDRESS = new KeySource(Kind.REMOTE_ADDRESS, "");

  public KeySource {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(argument, "argument");
  }

  /**
   * Parses {@code remote-address}, {@code header:<name>}, {@code principal}, {@code constant} or
   * {@code resolver:<name>}.
   *
   * @throws IllegalArgumentException naming the text and the accepted forms
   */
  public static KeySource parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    int colon = trimmed.indexOf(':');
    String kind = (colon < 0 ? trimmed : trimmed.substring(0, colon)).toLowerCase(Locale.ROOT);
    String argument = colon < 0 ? "" : trimmed.substring(colon + 1).trim();
    switch (kind) {
      case "remote-address", "principal", "constant" -> {
        if (colon < 0) {
          return new KeySource(kindOf(kind), "");
        }
      }
      case "header", "resolver" -> {
        if (TOKEN.matcher(argument).matches()) {
          return new KeySource(kindOf(kind), argument);
        }
      }
      default -> {
        // reported below
      }
    }
    throw new IllegalArgumentException(
        "expected remote-address, header:<name>, principal, constant or resolver:<name>, was '"
            + trimmed
            + "'");
  }

  private static Kind kindOf(String configName) {
    return ConfigNames.find(Kind.class, Kind::configName, configName);
  }

  @Override
  public String toString() {
    return argument.isEmpty() ? kind.configName : kind.configName + ":" + argument;
  }
}
