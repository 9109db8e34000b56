package io.github.limiter.tck.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the redis-server to run: the one on the PATH if there is one, otherwise the Redis 7.0.15
 * binary that {@code org.signal:embedded-redis} ships for linux-amd64, linux-arm64, linux-386 and
 * darwin, extracted once to {@code target/redis/bin} and made executable. So the tests need no
 * Redis installed.
 */
final class RedisExecutable {

  static final String EMBEDDED_VERSION = "7.0.15";

  private static Path resolved;

  private RedisExecutable() {}

  /**
   * The redis-server to start: from the PATH, else the embedded one, extracted under {@code bin}.
   */
  static synchronized Path get(Path bin) {
    if (resolved == null) {
      resolved = onPath(System.getenv("PATH")).orElseGet(() -> embedded(bin));
    }
    return resolved;
  }

  /** The first executable {@code redis-server} in {@code pathVariable}'s directories. */
  static Optional<Path> onPath(String pathVariable) {
    if (pathVariable == null) {
      return Optional.empty();
    }
    for (String dir : pathVariable.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, "redis-server");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * The embedded binary for this OS and architecture, extracted to {@code bin} unless an earlier
   * run left it there. Extraction goes through a temporary file and an atomic rename, so that two
   * JVMs extracting at once never run a half-written binary.
   *
   * @throws IllegalStateException if embedded-redis has no binary for this platform
   */
  static Path embedded(Path bin) {
    String name = "redis-server-" + EMBEDDED_VERSION + "-" + platform();
    try (InputStream in = RedisExecutable.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IllegalStateException(
            "no redis-server on the PATH, and no "
                + name
                + " on the class path (org.signal:embedded-redis): install redis-server");
      }
      Files.createDirectories(bin);
      Path target = bin.resolve(name);
      if (Files.isExecutable(target)) {
        return target;
      }
      Path partial = Files.createTempFile(bin, name, ".part");
      try {
        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
        if (!partial.toFile().setExecutable(true, true)) {
          throw new IllegalStateException("cannot make " + partial + " executable");
        }
        Files.move(
            partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(partial);
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract " + name + " to " + bin, e);
    }
  }

  /** embedded-redis's platform suffix, e.g. {@code linux-amd64} or {@code darwin-arm64}. */
  private static String platform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String osPart =
        os.contains("mac") || os.contains("darwin")
            ? "darwin"
            : os.contains("linux") ? "linux" : os;
    String archPart =
        switch (arch) {
          case "amd64", "x86_64" -> "amd64";
          case "aarch64", "arm64" -> "arm64";
          case "x86", "i386", "i686" -> "386";
          default -> arch;
        };
    return osPart + "-" + archPart;
  }
}
