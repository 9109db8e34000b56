package io.github.limiter.outbound;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OutboundFilter} in a real Jakarta REST client (Jersey) against a real upstream (WireMock
 * on loopback); waits go through a manual clock.
 */
class OutboundFilterTest {

  private static final long MS = 1_000_000L;

  private final WireMockServer upstream =
      new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
  private final ManualClock clock = ManualClock.random(3);
  private final List<Long> slept = new ArrayList<>();
  private final InMemoryStore store = InMemoryStore.builder().clock(clock).build();
  private Client client;

  @BeforeEach
  void start() {
    upstream.start();
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    upstream.stop();
    store.close();
  }

  private Outbound outbound(int burst, int attempts) {
    OutboundConfig partner =
        new OutboundConfig(
            Policy.tokenBucket("partner", Limit.bucket(burst, Duration.ofSeconds(1), burst)),
            1,
            List.of("http://127.0.0.1:" + upstream.port()),
            null,
            Duration.ZERO,
            false,
            Duration.ofMinutes(5),
            new OutboundConfig.Retry(
                attempts, Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofSeconds(1)),
            Duration.ofMinutes(5));
    return Outbound.of(
        List.of(partner),
        store,
        new OutboundLimiterTest.CountingRecorder(),
        Map.of(),
        clock,
        nanos -> {
          slept.add(nanos);
          clock.advance(nanos);
        },
        Clock.systemUTC(),
        new Random(1));
  }

  private String url(String path) {
    return "http://127.0.0.1:" + upstream.port() + path;
  }

  @Test
  void theBudgetIsSpentByCallsToTheUpstreamAndTheRefusalIsTyped() {
    upstream.stubFor(any(urlEqualTo("/quote")).willReturn(aResponse().withStatus(200)));
    client = ClientBuilder.newClient().register(new OutboundFilter(outbound(2, 1)));

    assertThat(client.target(url("/quote")).request().get().getStatus()).isEqualTo(200);
    assertThat(client.target(url("/quote")).request().get().getStatus()).isEqualTo(200);
    assertThatThrownBy(() -> client.target(url("/quote")).request().get())
        .isInstanceOf(ProcessingException.class)
        .cause()
        .isInstanceOfSatisfying(
            OutboundLimitException.class,
            e -> assertThat(e.retryAfter()).contains(Duration.ofMillis(500)));
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/quote")))).hasSize(2);
  }

  @Test
  void anUpstreamNotListedIsNotLimited() {
    upstream.stubFor(any(urlEqualTo("/quote")).willReturn(aResponse().withStatus(200)));
    client = ClientBuilder.newClient().register(new OutboundFilter(outbound(1, 1)));

    String other = "http://localhost:" + upstream.port() + "/quote"; // another origin
    for (int i = 0; i < 3; i++) {
      assertThat(client.target(other).request().get().getStatus()).isEqualTo(200);
    }
  }

  @Test
  void aRetryAfterBlocksTheNextCallsOfTheClient() {
    upstream.stubFor(
        any(urlEqualTo("/quote"))
            .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "2")));
    client = ClientBuilder.newClient().register(new OutboundFilter(outbound(10, 1)));

    assertThat(client.target(url("/quote")).request().get().getStatus()).isEqualTo(429);
    assertThatThrownBy(() -> client.target(url("/quote")).request().get())
        .cause()
        .isInstanceOfSatisfying(
            OutboundLimitException.class, e -> assertThat(e.isUpstreamBlock()).isTrue());
    clock.advance(Duration.ofSeconds(2));
    assertThat(client.target(url("/quote")).request().get().getStatus()).isEqualTo(429);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/quote")))).hasSize(2);
  }

  @Test
  void anIdempotentCallIsRetriedAfterRetryAfterAndTheClientSeesTheLastAnswer() {
    upstream.stubFor(
        any(urlEqualTo("/quote"))
            .inScenario("r")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1"))
            .willSetStateTo("again"));
    upstream.stubFor(
        any(urlEqualTo("/quote"))
            .inScenario("r")
            .whenScenarioStateIs("again")
            .willReturn(aResponse().withStatus(200).withHeader("X-Answer", "2").withBody("ok")));
    client = ClientBuilder.newClient().register(new OutboundFilter(outbound(10, 3)));

    Response answer = client.target(url("/quote")).request().put(Entity.text("order 7"));

    assertThat(answer.getStatus()).isEqualTo(200);
    assertThat(answer.getHeaderString("X-Answer")).isEqualTo("2");
    assertThat(answer.readEntity(String.class)).isEqualTo("ok");
    assertThat(slept).containsExactly(1_000 * MS);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/quote"))))
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.getBodyAsString()).isEqualTo("order 7"));
  }

  @Test
  void retriesStopAtTheAttempts() {
    upstream.stubFor(any(urlEqualTo("/quote")).willReturn(aResponse().withStatus(503)));
    client = ClientBuilder.newClient().register(new OutboundFilter(outbound(10, 3)));

    assertThat(client.target(url("/quote")).request().get().getStatus()).isEqualTo(503);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/quote")))).hasSize(3);
    assertThat(slept).hasSize(2);
  }

  @Test
  void aPostOrAStreamedBodyIsNeverSentTwice() {
    upstream.stubFor(
        any(urlEqualTo("/quote"))
            .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "1")));
    client = ClientBuilder.newClient().register(new OutboundFilter(outbound(10, 3)));

    assertThat(client.target(url("/quote")).request().post(Entity.text("pay 5")).getStatus())
        .isEqualTo(429);
    clock.advance(Duration.ofSeconds(1));
    assertThat(
            client
                .target(url("/quote"))
                .request()
                .put(
                    Entity.entity(
                        new ByteArrayInputStream(new byte[] {1, 2}), "application/octet-stream"))
                .getStatus())
        .isEqualTo(429);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/quote")))).hasSize(2);
    assertThat(slept).isEmpty();
  }
}
