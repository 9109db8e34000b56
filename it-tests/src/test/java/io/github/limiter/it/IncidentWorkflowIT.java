package io.github.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.harness.Curl;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PayaraNode;
import io.github.limiter.it.harness.Settings;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/live-limits.md's incident workflow, run as written against the demo WAR on Payara Micro,
 * with its admin API on through {@code LIMITER_ADMIN_TOKEN}: every command of the section's {@code
 * sh} blocks, in order, with only the documented variables replaced (the demo's address and the
 * token). Each must succeed (2xx); a loop, which the docs use to make the flood, may also meet the
 * 429s it exists for. A doc edit that breaks a command, or writes one this test cannot run, fails.
 */
class IncidentWorkflowIT {

  private static final String SECTION = "## The incident workflow";

  /** The demo's address, as the docs write it. */
  private static final String DEMO = "http://127.0.0.1:8080";

  private static final String TOKEN = "it-incident-" + UUID.randomUUID();

  private static PayaraNode demo;

  @BeforeAll
  static void startTheDemo() {
    Path war = Path.of(Settings.required("it.demo.war"));
    assertThat(war).exists();
    // At the context root, as the demo runs: the docs' paths are used as they are
    demo = PayaraNode.start("incident", war, "/", Map.of("LIMITER_ADMIN_TOKEN", TOKEN));
    demo.awaitReady(Duration.ofSeconds(180));
  }

  @AfterAll
  static void stopTheDemo() {
    if (demo != null) {
      demo.close();
    }
  }

  /**
   * Outbound policies are first-class: the demo's {@code partner} (5 calls per 2 s, {@code
   * max-wait=0s}) is listed by the admin API, a limit changed there holds for the next partner
   * calls at once, and the readiness check names it with the store that decides it.
   */
  @Test
  void anOutboundLimitChangedThroughTheAdminApiHoldsAtOnceAndIsInTheReadiness() {
    HttpResponse<String> listed = LiveOpsTwoNodesIT.admin(demo, "GET", "policies", null, TOKEN);
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    assertThat(listed.body()).contains("\"policy\":\"partner\"");

    // When an operator lowers it to one call a minute
    HttpResponse<String> changed =
        LiveOpsTwoNodesIT.admin(
            demo, "PUT", "policies/partner/limits", "{\"limits\": \"1/1m\"}", TOKEN);
    assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);

    // Then of three partner calls in a row one goes out at most, and the others are held (503)
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      statuses.add(Http.get(demo.base().resolve("api/cdi/partner-call?key=basic")).statusCode());
    }
    assertThat(statuses).as("partner calls after the change").containsOnly(200, 503);
    assertThat(statuses.stream().filter(status -> status == 503).count())
        .as("held calls of %s", statuses)
        .isGreaterThanOrEqualTo(2);
    // And the readiness check names the outbound policy
    HttpResponse<String> ready = Http.get(demo.base().resolve("/health/ready"));
    assertThat(ready.body()).containsPattern("\"outbound\"\\s*:\\s*\"partner\"");
  }

  @Test
  void everyCommandOfTheIncidentWorkflowSucceedsOnTheDemo() throws IOException {
    // Given the commands of the incident workflow, as docs/live-limits.md writes them
    List<String> commands = commands(Files.readAllLines(liveLimitsPage()), SECTION);
    assertThat(commands).as("the sh commands of %s", SECTION).isNotEmpty();
    String origin = demo.base().toString().replaceAll("/$", "");

    // When each runs against the demo, in order
    SoftAssertions softly = new SoftAssertions();
    for (String line : commands) {
      Curl curl =
          Curl.parse(
              line,
              Map.of("LIMITER_ADMIN_TOKEN", TOKEN),
              url -> {
                assertThat(url).as("the address in: %s", line).startsWith(DEMO + "/");
                return origin + url.substring(DEMO.length());
              });
      // Then each succeeds; a loop (the flood) may also meet its 429s
      for (int i = 0; i < curl.times(); i++) {
        HttpResponse<String> response = curl.send();
        System.out.printf(
            "%s %s -> %d %s%n", curl.method(), curl.uri(), response.statusCode(), response.body());
        boolean flooded = curl.times() > 1 && response.statusCode() == 429;
        softly
            .assertThat(response.statusCode())
            .as("%s (run %d of %d), answered %s", line, i + 1, curl.times(), response.body())
            .matches(status -> status / 100 == 2 || flooded, "2xx");
      }
    }
    softly.assertAll();
  }

  /**
   * The commands of the {@code sh} blocks of the section that starts at {@code heading}, in order:
   * continued lines joined, comments and blank lines left out. Other blocks show output.
   */
  static List<String> commands(List<String> page, String heading) {
    int start = page.indexOf(heading);
    assertThat(start).as("the heading %s in docs/live-limits.md", heading).isNotNegative();
    List<String> commands = new ArrayList<>();
    String fence = null;
    boolean shell = false;
    StringBuilder command = new StringBuilder();
    for (String line : page.subList(start + 1, page.size())) {
      String text = line.strip();
      if (fence == null && line.startsWith("## ")) {
        break;
      }
      if (text.startsWith("```")) {
        if (fence == null) {
          fence = text;
          shell = text.equals("```sh");
        } else {
          fence = null;
        }
      } else if (fence != null && shell && !text.isEmpty() && !text.startsWith("#")) {
        command.append(text);
        if (text.endsWith("\\")) {
          command.setLength(command.length() - 1);
        } else {
          commands.add(command.toString());
          command.setLength(0);
        }
      }
    }
    return commands;
  }

  /** docs/live-limits.md, found from the working directory upward. */
  private static Path liveLimitsPage() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path page = dir.resolve("docs/live-limits.md");
      if (Files.isRegularFile(page)) {
        return page;
      }
    }
    throw new IllegalStateException("no docs/live-limits.md above " + Path.of("").toAbsolutePath());
  }
}
