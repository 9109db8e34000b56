package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.DeclaredSettings;
import io.github.limiter.tck.docs.ReferenceTable;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md shows the table of the Redis store's keys made from their declarations in
 * {@link RedisStoreFactory}, between the marker lines of its section, as limiter-tck's {@code
 * ConfigurationDocsTest} does for the core's keys. When a declaration changes, run this test with
 * {@code -Dlimiter.docs.update=true} to rewrite the section.
 */
class RedisConfigurationDocsTest {

  static final String SECTION = "redis-settings";

  @Test
  void theDocsShowTheTableOfTheRedisKeys() throws IOException {
    Path page = ReferenceTable.page("configuration.md");
    String table = ReferenceTable.markdown(DeclaredSettings.of(new RedisStoreFactory()));
    assertThat(
            ReferenceTable.shown(page, SECTION, table, Boolean.getBoolean("limiter.docs.update")))
        .as(
            "%s does not show the Redis keys as RedisStoreFactory declares them. Update it with%n"
                + "  ./mvnw -pl limiter-redis -am test -Dtest=RedisConfigurationDocsTest"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dlimiter.docs.update=true%n"
                + "or paste this table between the markers:%n%s",
            page, table)
        .isTrue();
  }
}
