package io.github.limiter.tck.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The headless Chromium of the page tests (Debian's {@code chromium}, which {@code .ci/run}
 * installs). Every browser it starts gets a profile of its own and no network of its own beyond the
 * page.
 */
public final class Chromium {

  /** The options of every headless run: no sandbox (root in CI), no GPU, nothing phoned home. */
  static final List<String> HEADLESS =
      List.of(
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync");

  private static boolean toldWhySkipped;

  private Chromium() {}

  /**
   * The browser: {@code $CHROMIUM}, else the first of {@code chromium}, {@code chromium-browser},
   * {@code google-chrome} (and {@code google-chrome-stable}) on the PATH. Without one the calling
   * test is skipped and says how to run it; under {@code CI=true} it fails instead, so that CI
   * never skips it silently.
   *
   * @param why what the test does in the browser, for the message, e.g. "renders the report"
   */
  public static String binary(String why) {
    return binary(why, System.getenv());
  }

  /** {@link #binary(String)} in the environment {@code env}. */
  static String binary(String why, Map<String, String> env) {
    String configured = env.get("CHROMIUM");
    if (configured != null && !configured.isBlank()) {
      if (!Files.isExecutable(Path.of(configured))) {
        throw new AssertionError("CHROMIUM=" + configured + " is not an executable file");
      }
      return configured;
    }
    for (String name :
        List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
      for (String entry : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path candidate = Path.of(entry.isEmpty() ? "." : entry, name);
        if (Files.isExecutable(candidate)) {
          return candidate.toString();
        }
      }
    }
    String missing =
        "this test "
            + why
            + " in a real headless browser and found none (no CHROMIUM, and no chromium,"
            + " chromium-browser or google-chrome on the PATH). To run it, install Chromium"
            + " (Debian and Ubuntu: apt-get install chromium) or point CHROMIUM at a Chromium or"
            + " Chrome binary: CHROMIUM=/path/to/chrome ./mvnw verify.";
    if ("true".equalsIgnoreCase(env.get("CI"))) {
      throw new AssertionError("CI=true, so the browser test may not be skipped: " + missing);
    }
    // Surefire keeps a skip's reason in its report files: say it where the build is watched too.
    synchronized (Chromium.class) {
      if (!toldWhySkipped) {
        System.err.println("browser test skipped: " + missing);
        toldWhySkipped = true;
      }
    }
    return Assumptions.abort(missing);
  }

  /**
   * Loads {@code url} in a one-shot headless browser with {@code args} (such as {@code --dump-dom},
   * or {@code --screenshot=PATH --window-size=W,H}) and returns what it printed. Fails if it does
   * not end within 120 s or ends with an error.
   */
  public static String run(String why, String url, String... args)
      throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("chromium-profile");
    List<String> command = new ArrayList<>();
    command.add(binary(why));
    command.addAll(HEADLESS);
    command.add("--user-data-dir=" + profile);
    command.addAll(List.of(args));
    command.add(url);
    Path stdout = Files.createTempFile("chromium", ".out");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("chromium did not finish in 120 s: " + command);
    }
    assertThat(process.exitValue()).as(String.join(" ", command)).isZero();
    return Files.readString(stdout, StandardCharsets.UTF_8);
  }
}
