package io.github.limiter.outbound;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.Pause;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three clients, each with its own Redis store, share one real Redis and call one real upstream
 * (WireMock on loopback): the cluster keeps the upstream's limit together, and one refusal holds
 * every client. These tests wait on real time, a few seconds each.
 */
@ExtendWith(RedisExtension.class)
class ClusterUpstreamIT {

  private static final AtomicInteger RUNS = new AtomicInteger();
  private static final Duration TOLERANCE = Duration.ofMillis(100);

  /** How much later than its decision a call may reach the upstream on a loaded machine. */
  private static final Duration ARRIVAL_JITTER = Duration.ofMillis(200);

  private final WireMockServer upstream =
      new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final List<Outbound> clients = new ArrayList<>();

  /** When a client had ended the first answer that asked for a pause, in wall milliseconds. */
  private final AtomicLong pauseKnownAt = new AtomicLong(Long.MAX_VALUE);

  private RedisServer redis;

  @BeforeEach
  void start(RedisServer shared) {
    this.redis = shared;
    upstream.start();
  }

  @AfterEach
  void stop() {
    clients.forEach(Outbound::close);
    upstream.stop();
  }

  /** Three clients of outbound policy partner, each over a store of its own. */
  private List<OutboundLimiter> threeClients(String algorithm, String limits) {
    String prefix =
        "outbound-it:" + ProcessHandle.current().pid() + ":" + RUNS.incrementAndGet() + ":";
    List<OutboundLimiter> limiters = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Outbound client =
          Outbound.fromConfig(
              ConfigLookup.of(
                  Map.of(
                      "limiter.store",
                      "redis",
                      "limiter.redis.url",
                      redis.url(),
                      "limiter.redis.key-prefix",
                      prefix,
                      "limiter.outbound.partner.algorithm",
                      algorithm,
                      "limiter.outbound.partner.limits",
                      limits,
                      "limiter.outbound.partner.upstreams",
                      "http://127.0.0.1:" + upstream.port())),
              getClass().getClassLoader());
      clients.add(client);
      limiters.add(client.policy("partner").orElseThrow());
    }
    warmUp(limiters);
    return limiters;
  }

  /**
   * One call of each client to another path, so that connections and scripts are ready: a first
   * call that a loaded machine makes slow would look like a call sent late.
   */
  private void warmUp(List<OutboundLimiter> limiters) {
    upstream.stubFor(any(urlEqualTo("/warm-up")).willReturn(aResponse().withStatus(200)));
    HttpRequest call =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + upstream.port() + "/warm-up"))
            .GET()
            .build();
    for (OutboundLimiter limiter : limiters) {
      try {
        limiter.send(http, call, HttpResponse.BodyHandlers.discarding());
      } catch (Exception e) {
        throw new AssertionError("warm-up call failed", e);
      }
    }
  }

  /**
   * Each client calls as fast as its policy lets it, for {@code length}, through {@link
   * OutboundLimiter#begin} and {@link OutboundCall#end}: each call carries the wall time at which
   * its client asked its policy, and the first answer asking for a pause is noted when its client
   * has ended it (from then on the store holds every client). A call asked for after that must see
   * the block; one asked for before may have been let go before the block was written.
   */
  private List<Throwable> hammer(List<OutboundLimiter> limiters, Duration length) throws Exception {
    URI quote = URI.create("http://127.0.0.1:" + upstream.port() + "/quote");
    long end = System.nanoTime() + length.toNanos();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(limiters.size());
    try {
      List<Future<?>> running = new ArrayList<>();
      for (OutboundLimiter limiter : limiters) {
        running.add(
            pool.submit(
                () -> {
                  while (System.nanoTime() - end < 0) {
                    try {
                      long asked = System.currentTimeMillis();
                      OutboundCall call = limiter.begin(quote, null);
                      HttpRequest request =
                          HttpRequest.newBuilder(quote)
                              .header("X-Asked", Long.toString(asked))
                              .GET()
                              .build();
                      HttpResponse<Void> answer =
                          http.send(request, HttpResponse.BodyHandlers.discarding());
                      Duration pause =
                          call.end(
                              answer.statusCode(),
                              name -> answer.headers().firstValue(name).orElse(null));
                      if (!pause.isZero()) {
                        pauseKnownAt.accumulateAndGet(System.currentTimeMillis(), Math::min);
                      }
                    } catch (OutboundLimitException refused) {
                      Pause.millis(5);
                    } catch (Exception e) {
                      errors.add(e);
                      return null;
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : running) {
        f.get(length.toSeconds() + 30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return List.copyOf(errors);
  }

  /** A call as the upstream saw it: when, and when its client asked its policy. */
  private record Seen(Instant at, long askedMillis) {}

  /** The calls to /quote, in the order the upstream logged them. */
  private List<Seen> seen() {
    return upstream.getAllServeEvents().stream()
        .map(ServeEvent::getRequest)
        .filter(r -> r.getUrl().equals("/quote"))
        .map(r -> new Seen(r.getLoggedDate().toInstant(), Long.parseLong(r.getHeader("X-Asked"))))
        .sorted(Comparator.comparing(Seen::at))
        .toList();
  }

  private void answerOnce(ResponseDefinitionBuilder first) {
    upstream.stubFor(
        any(urlEqualTo("/quote"))
            .inScenario("once")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(first)
            .willSetStateTo("answered"));
    upstream.stubFor(
        any(urlEqualTo("/quote"))
            .inScenario("once")
            .whenScenarioStateIs("answered")
            .willReturn(aResponse().withStatus(200)));
  }

  @Test
  void theCallsOfAllClientsTogetherNeverExceedTheLimit() throws Exception {
    List<OutboundLimiter> limiters = threeClients("sliding-window-log", "5/s");
    upstream.stubFor(any(urlEqualTo("/quote")).willReturn(aResponse().withStatus(200)));
    // The log of the warm-up calls is over: 1 s after them, the budget is whole
    Pause.millis(1000);

    assertThat(hammer(limiters, Duration.ofMillis(2500))).isEmpty();

    List<Instant> calls = seen().stream().map(Seen::at).toList();
    // At most 5 in any second, as the upstream logged them. A call reaches it a moment after its
    // decision, a moment that a loaded machine stretches: a window short of a second by that.
    for (int i = 5; i < calls.size(); i++) {
      assertThat(Duration.between(calls.get(i - 5), calls.get(i)))
          .as("calls %s to %s", i - 5, i)
          .isGreaterThan(Duration.ofSeconds(1).minus(ARRIVAL_JITTER));
    }
    // And in all, at most 5 per second of the run
    assertThat(calls.size()).isBetween(10, 15);
  }

  /**
   * After the upstream's one answer asking for a pause of {@code pause}, no client calls it until
   * the pause is over, and then they resume. The pause runs from when a client read the answer:
   * after the upstream logged the call, and by the time its client had ended it.
   */
  private void noClientCallsUntil(Duration pause) throws Exception {
    List<OutboundLimiter> limiters = threeClients("token-bucket", "100/s burst=100");

    assertThat(hammer(limiters, pause.plusMillis(1500))).isEmpty();

    assertResumedBetween(
        seen().get(0).at().plus(pause), Instant.ofEpochMilli(pauseKnownAt.get()).plus(pause));
  }

  /**
   * Of the calls asked for once a client had ended the answer asking for a pause, none reaches the
   * upstream before {@code earliest}, and the first comes between {@code earliest} and {@code
   * latest}, give or take the tolerance. Calls asked for before that may have been on their way,
   * and the store could not stop them. The two ends differ by how long the answer took to reach its
   * client, a moment that a stalled machine stretches.
   */
  private void assertResumedBetween(Instant earliest, Instant latest) {
    long known = pauseKnownAt.get();
    assertThat(known).as("an answer asked for a pause").isNotEqualTo(Long.MAX_VALUE);
    List<Seen> calls = seen();
    List<Seen> onTheirWay = calls.stream().filter(c -> c.askedMillis() <= known).toList();
    List<Seen> after = calls.stream().filter(c -> c.askedMillis() > known).toList();
    assertThat(onTheirWay).as("calls asked for before the pause was known").hasSizeLessThan(10);
    assertThat(after).as("the clients resumed").hasSizeGreaterThan(10);
    assertThat(after.get(0).at())
        .as(
            "the first call after the pause; pause known at %s; calls %s",
            Instant.ofEpochMilli(known), calls)
        .isBetween(earliest.minus(TOLERANCE), latest.plus(TOLERANCE));
    assertThat(after)
        .allSatisfy(c -> assertThat(c.at()).isAfterOrEqualTo(earliest.minus(TOLERANCE)));
  }

  @Test
  void afterOneRetryAfterOfTwoSecondsNoClientCallsForTwoSeconds() throws Exception {
    answerOnce(aResponse().withStatus(429).withHeader("Retry-After", "2"));

    noClientCallsUntil(Duration.ofSeconds(2));
  }

  @Test
  void anHttpDateRetryAfterHoldsEveryClientUntilThatDate() throws Exception {
    List<OutboundLimiter> limiters = threeClients("token-bucket", "100/s burst=100");
    // A date 3 s ahead, in whole seconds as HTTP-dates are; taken once the clients are up, so that
    // a slow start cannot use up the pause before the first call
    Instant date = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
    answerOnce(
        aResponse()
            .withStatus(503)
            .withHeader(
                "Retry-After",
                DateTimeFormatter.RFC_1123_DATE_TIME.format(date.atOffset(ZoneOffset.UTC))));

    assertThat(hammer(limiters, Duration.ofMillis(4500))).isEmpty();

    // The block ends at the date, or when the answer reached its client if that was later
    Instant known = Instant.ofEpochMilli(pauseKnownAt.get());
    assertResumedBetween(date, known.isAfter(date) ? known : date);
  }

  @Test
  void rateLimitWithNothingRemainingHoldsEveryClientUntilItsReset() throws Exception {
    answerOnce(aResponse().withStatus(200).withHeader("RateLimit", "\"default\";r=0;t=2"));

    noClientCallsUntil(Duration.ofSeconds(2));
  }

  @Test
  void aMalformedRetryAfterCausesNoHoldAndNoError() throws Exception {
    answerOnce(aResponse().withStatus(429).withHeader("Retry-After", "in a while"));
    List<OutboundLimiter> limiters = threeClients("token-bucket", "20/s burst=5");

    assertThat(hammer(limiters, Duration.ofMillis(1000))).isEmpty();

    List<Instant> calls = seen().stream().map(Seen::at).toList();
    assertThat(Duration.between(calls.get(0), calls.get(1))).isLessThan(TOLERANCE);
    assertThat(calls.size()).isGreaterThan(10);
  }
}
