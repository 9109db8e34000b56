package io.github.limiter.redis;

import io.github.limiter.Algorithm;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The Lua scripts, read once from the {@code lua/} resources. Per algorithm, the shared prelude
 * (arguments and clock), the shared helpers, the algorithm's part and a driver (decide or refund),
 * joined into one script; except that an algorithm with a {@code <name>-decide.lua} of its own
 * decides with the prelude and that alone, written without helpers or hooks to keep the hot path
 * free of per-call closures and tables.
 */
final class Scripts {

  /** One script text and its SHA-1, which is what EVALSHA names. */
  record Script(String name, String source, String sha) {}

  private static final Map<Algorithm, Script> DECIDE = new EnumMap<>(Algorithm.class);
  private static final Map<Algorithm, Script> REFUND = new EnumMap<>(Algorithm.class);

  static {
    String prelude = resource("prelude");
    String common = resource("common");
    String decide = resource("decide");
    String refund = resource("refund");
    for (Algorithm algorithm : Algorithm.values()) {
      String name = algorithm.configName();
      String part = resource(name);
      String own = optionalResource(name + "-decide");
      DECIDE.put(algorithm, script(name + "/decide", own != null ? prelude + own : prelude + common + part + decide));
      REFUND.put(algorithm, script(name + "/refund", prelude + common + part + refund));
    }
  }

  private Scripts() {}

  static Script decide(Algorithm algorithm) {
    return DECIDE.get(algorithm);
  }

  static Script refund(Algorithm algorithm) {
    return REFUND.get(algorithm);
  }

  private static Script script(String name, String source) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
      return new Script(name, source, HexFormat.of().formatHex(digest));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-1", e);
    }
  }

  private static String resource(String name) {
    String text = optionalResource(name);
    if (text == null) {
      throw new IllegalStateException("missing resource io/github/limiter/redis/lua/" + name + ".lua");
    }
    return text;
  }

  /** The resource's text, or null if there is none. */
  private static String optionalResource(String name) {
    String path = "lua/" + name + ".lua";
    try (InputStream in = Scripts.class.getResourceAsStream(path)) {
      if (in == null) {
        return null;
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read io/github/limiter/redis/" + path, e);
    }
  }
}
