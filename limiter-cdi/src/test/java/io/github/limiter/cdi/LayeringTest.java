package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The optional APIs stay optional: CDI classes never refer to JAX-RS, and only the servlet-bound
 * class refers to the servlet API, which is loaded only when that API is present. A reference in a
 * class file's constant pool is what would raise NoClassDefFoundError without the API.
 */
class LayeringTest {

  private static final Path CLASSES = Path.of("target/classes/io/github/limiter/cdi");

  @Test
  void cdiClassesDoNotReferToJaxRs() throws IOException {
    assertThat(classesIn(CLASSES, false))
        .isNotEmpty()
        .allSatisfy(
            file ->
                assertThat(constants(file)).as(file.toString()).doesNotContain("jakarta/ws/rs"));
  }

  @Test
  void onlyTheServletBoundClassRefersToTheServletApi() throws IOException {
    List<Path> referring =
        classesIn(CLASSES, true).stream()
            .filter(file -> constants(file).contains("jakarta/servlet"))
            .map(CLASSES::relativize)
            .toList();
    assertThat(referring)
        .allSatisfy(file -> assertThat(file.toString()).startsWith("ServletWebRequests"));
    assertThat(referring).isNotEmpty();
  }

  @Test
  void noBeansXmlSoTheExtensionAloneRegistersTheBeans() {
    InputStream beansXml = LimitedBuildExtension.class.getResourceAsStream("/META-INF/beans.xml");
    assertThat(beansXml).isNull();
  }

  private static List<Path> classesIn(Path directory, boolean withSubpackages) throws IOException {
    try (Stream<Path> files = withSubpackages ? Files.walk(directory) : Files.list(directory)) {
      return files.filter(file -> file.toString().endsWith(".class")).toList();
    }
  }

  private static String constants(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
