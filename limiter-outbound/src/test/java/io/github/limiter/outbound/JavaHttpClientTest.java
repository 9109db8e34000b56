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
import io.github.limiter.internal.config.KeySource;
import io.github.limiter.internal.metrics.Recorder.OutboundEvent;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.tck.ManualClock;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OutboundLimiter#send} against a real HTTP upstream (WireMock on loopback): the waits go
 * through a manual clock, so nothing sleeps.
 */
class JavaHttpClientTest {

  private static final long MS = 1_000_000L;

  private final WireMockServer upstream =
      new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final ManualClock clock = ManualClock.negative();
  private final List<Long> slept = new ArrayList<>();
  private final InMemoryStore store = InMemoryStore.builder().clock(clock).build();
  private final OutboundLimiterTest.CountingRecorder recorder =
      new OutboundLimiterTest.CountingRecorder();

  @BeforeEach
  void start() {
    upstream.start();
  }

  @AfterEach
  void stop() {
    upstream.stop();
    store.close();
  }

  private OutboundLimiter limiter(int attempts, Duration maxTime, KeySource credential) {
    return new OutboundLimiter(
        new OutboundConfig(
            Policy.tokenBucket("partner", Limit.bucket(100, Duration.ofSeconds(1), 100)),
            1,
            List.of(),
            credential,
            Duration.ZERO,
            false,
            Duration.ofMinutes(5),
            new OutboundConfig.Retry(
                attempts, maxTime, Duration.ofMillis(100), Duration.ofSeconds(1)),
            Duration.ofMinutes(5)),
        store,
        recorder,
        null,
        clock,
        nanos -> {
          slept.add(nanos);
          clock.advance(nanos);
        },
        Clock.systemUTC(),
        new Random(7),
        new OverdueCalls());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + upstream.port() + path);
  }

  private void refuseThenAnswer(int refusals, String retryAfter) {
    String state = Scenario.STARTED;
    for (int i = 0; i < refusals; i++) {
      var refusal = aResponse().withStatus(429);
      if (retryAfter != null) {
        refusal = refusal.withHeader("Retry-After", retryAfter);
      }
      upstream.stubFor(
          any(urlEqualTo("/pay"))
              .inScenario("refusals")
              .whenScenarioStateIs(state)
              .willReturn(refusal)
              .willSetStateTo("refused " + (i + 1)));
      state = "refused " + (i + 1);
    }
    upstream.stubFor(
        any(urlEqualTo("/pay"))
            .inScenario("refusals")
            .whenScenarioStateIs(state)
            .willReturn(aResponse().withStatus(200).withBody("paid")));
  }

  @Test
  void anIdempotentCallIsSentAgainAfterTheUpstreamsRetryAfter() throws Exception {
    refuseThenAnswer(1, "2");
    OutboundLimiter partner = limiter(3, Duration.ofSeconds(30), null);

    HttpResponse<String> answer =
        partner.send(
            client,
            HttpRequest.newBuilder(uri("/pay")).GET().build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("paid");
    assertThat(slept).containsExactly(2_000 * MS);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/pay")))).hasSize(2);
    assertThat(recorder.count(OutboundEvent.RETRIED)).isEqualTo(1);
  }

  @Test
  void withoutRetryAfterTheBackoffIsJitteredAndBoundedByTheAttempts() throws Exception {
    refuseThenAnswer(5, null);
    OutboundLimiter partner = limiter(3, Duration.ofSeconds(30), null);

    HttpResponse<String> answer =
        partner.send(
            client,
            HttpRequest.newBuilder(uri("/pay")).GET().build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(429);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/pay")))).hasSize(3);
    assertThat(slept).hasSize(2);
    assertThat(slept.get(0)).isBetween(0L, 100 * MS);
    assertThat(slept.get(1)).isBetween(0L, 200 * MS);
    // The same seed, the same waits
    RetryPlan same =
        new RetryPlan(
            new OutboundConfig.Retry(
                3, Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofSeconds(1)),
            new Random(7));
    assertThat(slept).containsExactly(same.jitter(1), same.jitter(2));
  }

  @Test
  void retriesStopAtTheMaxTime() throws Exception {
    refuseThenAnswer(5, "3");
    OutboundLimiter partner = limiter(5, Duration.ofSeconds(5), null);

    HttpResponse<String> answer =
        partner.send(
            client,
            HttpRequest.newBuilder(uri("/pay")).GET().build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(429);
    assertThat(slept).containsExactly(3_000 * MS);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/pay")))).hasSize(2);
  }

  @Test
  void aNonIdempotentCallIsNeverSentTwice() throws Exception {
    refuseThenAnswer(1, "1");
    OutboundLimiter partner = limiter(5, Duration.ofSeconds(30), null);

    HttpResponse<String> answer =
        partner.send(
            client,
            HttpRequest.newBuilder(uri("/pay"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":5}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(429);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/pay")))).hasSize(1);
    assertThat(slept).isEmpty();
  }

  @Test
  void aBodyThatCannotBeRepeatedIsNeverSentTwice() throws Exception {
    refuseThenAnswer(1, "1");
    OutboundLimiter partner = limiter(5, Duration.ofSeconds(30), null);

    HttpResponse<String> streamed =
        partner.send(
            client,
            HttpRequest.newBuilder(uri("/pay"))
                .PUT(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(new byte[] {1, 2, 3})))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(streamed.statusCode()).isEqualTo(429);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/pay")))).hasSize(1);
  }

  @Test
  void aRepeatableBodyOfAnIdempotentCallIsSentAgain() throws Exception {
    refuseThenAnswer(1, "1");
    OutboundLimiter partner = limiter(5, Duration.ofSeconds(30), null);

    HttpResponse<String> answer =
        partner.send(
            client,
            HttpRequest.newBuilder(uri("/pay"))
                .PUT(HttpRequest.BodyPublishers.ofString("{\"amount\":5}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(upstream.findAll(anyRequestedFor(urlEqualTo("/pay"))))
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.getBodyAsString()).isEqualTo("{\"amount\":5}"));
  }

  @Test
  void theCredentialHeaderKeepsABudgetPerKeyAndTheBlockIsPerCredential() throws Exception {
    refuseThenAnswer(1, "60");
    OutboundLimiter partner =
        limiter(1, Duration.ofSeconds(30), KeySource.parse("header:Authorization"));

    partner.send(
        client,
        HttpRequest.newBuilder(uri("/pay")).header("Authorization", "Bearer a").GET().build(),
        HttpResponse.BodyHandlers.ofString());

    assertThatThrownBy(
            () ->
                partner.send(
                    client,
                    HttpRequest.newBuilder(uri("/pay"))
                        .header("Authorization", "Bearer a")
                        .GET()
                        .build(),
                    HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(OutboundLimitException.class);
    HttpResponse<String> other =
        partner.send(
            client,
            HttpRequest.newBuilder(uri("/pay")).header("Authorization", "Bearer b").GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(other.statusCode()).isEqualTo(200);
  }
}
