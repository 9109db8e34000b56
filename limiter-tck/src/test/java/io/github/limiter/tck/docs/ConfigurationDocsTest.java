package io.github.limiter.tck.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.DeclaredSettings;
import io.github.limiter.internal.store.InMemoryStoreFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/configuration.md shows each table of the core's settings made from their declarations
 * ({@link DeclaredSettings}), between the two marker lines of its section. When a declaration
 * changes, this test fails and says how to bring the page up to date: run it with {@code
 * -Dlimiter.docs.update=true}, which rewrites the sections between their markers.
 */
class ConfigurationDocsTest {

  static Stream<Arguments> sections() {
    return Stream.of(
        Arguments.of("general-settings", DeclaredSettings.general()),
        Arguments.of("settings-table", DeclaredSettings.policies()),
        Arguments.of("route-settings", DeclaredSettings.routes()),
        Arguments.of("http-settings", DeclaredSettings.http()),
        Arguments.of("event-settings", DeclaredSettings.eventsAndMetrics()),
        Arguments.of("top-keys-settings", DeclaredSettings.topKeys()),
        Arguments.of("live-settings", DeclaredSettings.live()),
        Arguments.of("memory-settings", DeclaredSettings.of(new InMemoryStoreFactory())));
  }

  @Test
  void everySettingHasItsLineOfDocumentation() {
    assertThat(sections().map(a -> (DeclaredSettings.Table) a.get()[1]))
        .flatMap(DeclaredSettings.Table::settings)
        .hasSizeGreaterThan(50)
        .allSatisfy(ReferenceTable::documented);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sections")
  void theDocsShowTheTableOfEachSection(String section, DeclaredSettings.Table settings)
      throws IOException {
    Path page = ReferenceTable.page("configuration.md");
    String table = ReferenceTable.markdown(settings);
    assertThat(
            ReferenceTable.shown(page, section, table, Boolean.getBoolean("limiter.docs.update")))
        .as(
            "%s does not show the settings of section %s as they are declared. Update it with%n"
                + "  ./mvnw -pl limiter-tck -am test -Dtest=ConfigurationDocsTest"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dlimiter.docs.update=true%n"
                + "or paste this table between the markers:%n%s",
            page, section, table)
        .isTrue();
  }
}
