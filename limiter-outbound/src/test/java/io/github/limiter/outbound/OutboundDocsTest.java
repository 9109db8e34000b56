package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.config.DeclaredSettings;
import io.github.limiter.tck.docs.ReferenceTable;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/outbound.md shows the table of an outbound policy's keys made from their declarations
 * ({@link OutboundSection}, through {@link DeclaredSettings#of}), between two marker lines; {@code
 * -Dlimiter.docs.update=true} rewrites it.
 */
class OutboundDocsTest {

  @Test
  void everyOutboundSettingHasItsLineOfDocumentation() {
    assertThat(DeclaredSettings.of(new OutboundSection()).settings())
        .isNotEmpty()
        .allSatisfy(ReferenceTable::documented);
  }

  @Test
  void theDocsShowTheTableOfTheOutboundKeys() throws IOException {
    Path page = ReferenceTable.page("outbound.md");
    String table = ReferenceTable.markdown(DeclaredSettings.of(new OutboundSection()));
    assertThat(
            ReferenceTable.shown(
                page, "outbound-table", table, Boolean.getBoolean("limiter.docs.update")))
        .as(
            "%s does not show the outbound keys as they are declared. Update it with%n"
                + "  ./mvnw -pl limiter-outbound -am test -Dtest=OutboundDocsTest"
                + " -Dsurefire.failIfNoSpecifiedTests=false -Dlimiter.docs.update=true%n"
                + "or paste this table between the markers:%n%s",
            page, table)
        .isTrue();
  }
}
