package io.github.limiter.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.ArchivePaths;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The Limiter jars of this build, as copied by the pom to {@code it.libs.dir}. */
public final class LimiterLibraries {

  private LimiterLibraries() {}

  /** Every jar in {@code it.libs.dir}, sorted by name. */
  public static List<Path> jars() {
    Path dir = Path.of(Settings.required("it.libs.dir"));
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> jars =
          files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().toList();
      if (jars.isEmpty()) {
        throw new IllegalStateException(
            "it.libs.dir: no jars in " + dir + "; run the build through Maven");
      }
      return jars;
    } catch (IOException e) {
      throw new UncheckedIOException("it.libs.dir: cannot list " + dir, e);
    }
  }

  /** Adds {@link #jars()} to {@code war}'s WEB-INF/lib, leaving any jar it already holds. */
  public static WebArchive addTo(WebArchive war) {
    for (Path jar : jars()) {
      ArchivePath target = ArchivePaths.create("WEB-INF/lib", jar.getFileName().toString());
      if (!war.contains(target)) {
        war.addAsLibrary(jar.toFile());
      }
    }
    return war;
  }
}
