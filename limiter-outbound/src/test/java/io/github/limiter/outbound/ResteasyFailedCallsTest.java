package io.github.limiter.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.ws.rs.client.ClientBuilder;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.rest.client.RestClientBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

/**
 * The cases of {@link FailedCallsGivePermitsBackTest} on RESTEasy's clients (the Jakarta REST
 * client and MicroProfile Rest Client of WildFly 39), run without Jersey on the class path.
 * RESTEasy runs no code of an application's on a call that ends without an answer (see
 * docs/outbound.md), so there {@code max-call-time} gives the permit back: these tests hold it to
 * that, with a short one. A cancelled call is not stopped by RESTEasy: the upstream's answer, or
 * {@code max-call-time}, ends it.
 */
@Tag("resteasy") // run apart, without Jersey: see the pom
class ResteasyFailedCallsTest extends FailedCallsGivePermitsBackTest {

  private static final Duration MAX_CALL_TIME = Duration.ofSeconds(1);

  /** Overdue calls are looked for every second; and a shared machine may be slow. */
  private static final Duration SLACK = Duration.ofSeconds(3);

  @BeforeEach
  void onResteasy() {
    assertThat(ClientBuilder.newBuilder().getClass().getName()).startsWith("org.jboss.resteasy.");
    assertThat(RestClientBuilder.newBuilder().getClass().getName())
        .startsWith("org.jboss.resteasy.");
  }

  @Override
  void configure(Map<String, String> config) {
    config.put("limiter.outbound.partner.max-call-time", MAX_CALL_TIME.toSeconds() + "s");
  }

  @Override
  void assertFailedCallEnded() {
    await().atMost(MAX_CALL_TIME.plus(SLACK)).until(() -> partner.openCalls() == 0);
    assertPermitsBack();
  }
}
