package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.fail;

import io.github.limiter.internal.config.ReferenceTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md shows the table of the Redis store's keys made from their declarations in
 * {@link RedisStoreFactory}, between the marker lines of its section, as limiter-api's {@code
 * ConfigurationDocsTest} does for the core's keys. When a declaration changes, run this test with
 * {@code -Dlimiter.docs.update=true} to rewrite the section.
 */
class RedisConfigurationDocsTest {

  static final String SECTION = "redis-settings";

  @Test
  void theDocsShowTheTableOfTheRedisKeys() throws IOException {
    Path page = page();
    String text = Files.readString(page, StandardCharsets.UTF_8);
    String table = ReferenceTable.of(new RedisStoreFactory());
    String updated = ReferenceTable.withTable(text, SECTION, table);
    if (updated.equals(text)) {
      return;
    }
    if (Boolean.getBoolean("limiter.docs.update")) {
      Files.writeString(page, updated, StandardCharsets.UTF_8);
      return;
    }
    fail(
        "%s does not show the Redis keys as RedisStoreFactory declares them. Update it with%n"
            + "  ./mvnw -pl limiter-redis -am test -Dtest=RedisConfigurationDocsTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dlimiter.docs.update=true%n"
            + "or paste this table between the markers:%n%s",
        page, table);
  }

  /** docs/configuration.md of the project, found from the module's directory. */
  private static Path page() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path page = dir.resolve("docs/configuration.md");
      if (Files.isRegularFile(page)) {
        return page;
      }
    }
    throw new AssertionError("no docs/configuration.md above " + Path.of("").toAbsolutePath());
  }
}
