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
 * The Lua scripts, read once from the {@code lua/} resources: per algorithm, the shared prelude,
 * the algorithm's part and a driver (decide or refund), joined into one script.
 */
final class Scripts {

  /** One script text and its SHA-1, which is what EVALSHA names. */
  record Script(String name, String source, String sha) {}

  private static final Map<Algorithm, Script> DECIDE = new EnumMap<>(Algorithm.class);
  private static final Map<Algorithm, Script> REFUND = new EnumMap<>(Algorithm.class);

  static {
    String prelude = resource("common");
    String decide = resource("decide");
    String refund = resource("refund");
    for (Algorithm algorithm : Algorithm.values()) {
      String part = resource(algorithm.configName());
      DECIDE.put(algorithm, script(algorithm.configName() + "/decide", prelude + part + decide));
      REFUND.put(algorithm, script(algorithm.configName() + "/refund", prelude + part + refund));
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
    String path = "lua/" + name + ".lua";
    try (InputStream in = Scripts.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource io/github/limiter/redis/" + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read io/github/limiter/redis/" + path, e);
    }
  }
}
