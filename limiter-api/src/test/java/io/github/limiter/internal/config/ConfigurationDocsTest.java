package io.github.limiter.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.store.InMemoryStoreFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/configuration.md shows each table of settings made from their declarations ({@link
 * ReferenceTable}), between the two marker lines of its section. When a declaration changes, this
 * test fails and says how to bring the page up to date: run it with {@code
 * -Dlimiter.docs.update=true}, which rewrites the sections between their markers.
 */
class ConfigurationDocsTest {

  @Test
  void everySettingHasItsLineOfDocumentation() {
    List<Setting<?>> all = new ArrayList<>(PolicySettings.TABLE);
    for (List<Setting<?>> table :
        List.of(
            CoreSettings.TOP,
            CoreSettings.ROUTE,
            CoreSettings.HTTP,
            CoreSettings.EVENTS,
            CoreSettings.METRICS,
            CoreSettings.TOP_KEYS,
            CoreSettings.CONFIG,
            CoreSettings.ADMIN)) {
      all.addAll(table);
    }
    all.addAll(new InMemoryStoreFactory().settings());
    assertThat(all).allSatisfy(ConfigurationDocsTest::documented);
  }

  /** Each cell of {@code setting}'s line in the reference table is filled, and fits in its cell. */
  static void documented(Setting<?> setting) {
    assertThat(List.of(setting.type(), setting.defaultText(), setting.example(), setting.meaning()))
        .as(setting.name())
        .allSatisfy(cell -> assertThat(cell).isNotBlank().doesNotContain("|", "\n"));
  }

  static Stream<Arguments> sections() {
    return Stream.of(
        Arguments.of("general-settings", ReferenceTable.general()),
        Arguments.of("settings-table", ReferenceTable.policies()),
        Arguments.of("route-settings", ReferenceTable.routes()),
        Arguments.of("http-settings", ReferenceTable.http()),
        Arguments.of("event-settings", ReferenceTable.eventsAndMetrics()),
        Arguments.of("top-keys-settings", ReferenceTable.topKeys()),
        Arguments.of("live-settings", ReferenceTable.live()),
        Arguments.of("memory-settings", ReferenceTable.of(new InMemoryStoreFactory())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sections")
  void theDocsShowTheTableOfEachSection(String section, String table) throws IOException {
    assertThat(ReferenceTable.shown(section, table, Boolean.getBoolean("limiter.docs.update")))
        .as(
            "%s does not show the settings of section %s as they are declared. Update it with%n"
                + "  ./mvnw -pl limiter-api -am test -Dtest=ConfigurationDocsTest"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dlimiter.docs.update=true%n"
                + "or paste this table between the markers:%n%s",
            ReferenceTable.page(), section, table)
        .isTrue();
  }
}
