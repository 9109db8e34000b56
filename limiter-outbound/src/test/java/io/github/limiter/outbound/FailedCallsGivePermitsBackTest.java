package io.github.limiter.outbound;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.RedisExtension;
import io.github.limiter.tck.redis.RedisServer;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.rest.client.RestClientBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A call that ends without an answer gives its concurrency permit back, with each client the docs
 * list: a refused connection, a read timeout and a cancelled call, on memory and on a real Redis,
 * against a real upstream (WireMock on loopback) and a closed port. The policy admits one call in
 * flight per upstream, so a permit kept by a failed call refuses every later call.
 */
@ExtendWith(RedisExtension.class)
class FailedCallsGivePermitsBackTest {

  private static final AtomicInteger RUNS = new AtomicInteger();
  private static final Duration READ_TIMEOUT = Duration.ofMillis(300);

  /** For a call to cancel: it would end by itself with the upstream's answer, after 3 s. */
  private static final Duration PATIENT = Duration.ofSeconds(10);

  private final WireMockServer upstream =
      new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
  private Outbound outbound;
  OutboundLimiter partner;
  private final List<AutoCloseable> clients = new ArrayList<>();
  private URI slow;
  private URI refused;

  /** The stand-in partner's API, for MicroProfile Rest Client. */
  @Path("slow")
  public interface Slow {
    @GET
    String quote();

    @GET
    CompletionStage<String> quoteLater();
  }

  @BeforeEach
  void start() {
    upstream.start();
    // Longer than the read timeout: every call to it ends in a timeout, unless cancelled before
    upstream.stubFor(
        get(urlEqualTo("/slow")).willReturn(aResponse().withFixedDelay(3_000).withBody("quote")));
    slow = URI.create("http://127.0.0.1:" + upstream.port() + "/slow");
    refused = URI.create("http://127.0.0.1:" + RedisServer.freePort() + "/slow"); // none listens
  }

  @AfterEach
  void stop() {
    for (AutoCloseable client : clients) {
      try {
        client.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    if (outbound != null) {
      outbound.close();
    }
    upstream.stop();
  }

  private void policy(String store, RedisServer redis) {
    Map<String, String> config = new HashMap<>();
    config.put("limiter.outbound.partner.algorithm", "concurrency");
    config.put("limiter.outbound.partner.limits", "1");
    config.put(
        "limiter.outbound.partner.upstreams",
        "http://127.0.0.1:" + upstream.port() + ", http://127.0.0.1:" + refused.getPort());
    config.put("limiter.store", store);
    configure(config);
    if (store.equals("redis")) {
      config.put("limiter.redis.url", redis.url());
      config.put(
          "limiter.redis.key-prefix",
          "failed-calls:" + ProcessHandle.current().pid() + ":" + RUNS.incrementAndGet() + ":");
    }
    outbound = Outbound.fromConfig(ConfigLookup.of(config), getClass().getClassLoader());
    partner = outbound.policy("partner").orElseThrow();
  }

  /** More settings of policy partner, for a client that needs them. */
  void configure(Map<String, String> config) {}

  /** The Jakarta REST call that just failed gave its permit back: at once, on Jersey. */
  void assertFailedCallEnded() {
    assertPermitsBack();
  }

  // Jakarta REST client (Jersey)

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void jakartaRestRefusedConnection(String store, RedisServer redis) {
    policy(store, redis);
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(
              () -> jakartaRest(READ_TIMEOUT).target(refused).request().get(String.class))
          .isInstanceOf(ProcessingException.class)
          .hasRootCauseInstanceOf(ConnectException.class);
      assertFailedCallEnded();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void jakartaRestReadTimeout(String store, RedisServer redis) {
    policy(store, redis);
    assertThatThrownBy(() -> jakartaRest(READ_TIMEOUT).target(slow).request().get(String.class))
        .isInstanceOf(ProcessingException.class);
    assertFailedCallEnded();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void jakartaRestCancelledCall(String store, RedisServer redis) {
    policy(store, redis);
    Future<Response> call = jakartaRest(PATIENT).target(slow).request().async().get();
    awaitInFlight();

    assertThat(call.cancel(true)).isTrue();

    awaitPermitsBack();
  }

  private Client jakartaRest(Duration readTimeout) {
    Client client =
        ClientBuilder.newBuilder()
            .register(new OutboundFilter(outbound))
            .connectTimeout(2, TimeUnit.SECONDS)
            .readTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
            .build();
    clients.add(client::close);
    return client;
  }

  // MicroProfile Rest Client (Jersey's, as Payara serves it)

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void microProfileRefusedConnection(String store, RedisServer redis) {
    policy(store, redis);
    Slow partnerApi = microProfile(refused, READ_TIMEOUT);
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(partnerApi::quote)
          .isInstanceOf(ProcessingException.class)
          .hasRootCauseInstanceOf(ConnectException.class);
      assertFailedCallEnded();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void microProfileReadTimeout(String store, RedisServer redis) {
    policy(store, redis);
    assertThatThrownBy(microProfile(slow, READ_TIMEOUT)::quote)
        .isInstanceOf(ProcessingException.class);
    assertFailedCallEnded();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void microProfileCancelledCall(String store, RedisServer redis) {
    policy(store, redis);
    CompletionStage<String> call = microProfile(slow, PATIENT).quoteLater();
    awaitInFlight();

    assertThat(call.toCompletableFuture().cancel(true)).isTrue();

    awaitPermitsBack();
  }

  private Slow microProfile(URI target, Duration readTimeout) {
    Slow client =
        RestClientBuilder.newBuilder()
            .baseUri(target.resolve("/"))
            .register(new OutboundFilter(outbound))
            .connectTimeout(2, TimeUnit.SECONDS)
            .readTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
            .build(Slow.class);
    if (client instanceof AutoCloseable closeable) { // as RESTEasy's are
      clients.add(closeable);
    }
    return client;
  }

  // java.net.http

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void javaNetHttpRefusedConnection(String store, RedisServer redis) {
    policy(store, redis);
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> send(refused, READ_TIMEOUT)).isInstanceOf(ConnectException.class);
    }
    assertPermitsBack();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void javaNetHttpTimeout(String store, RedisServer redis) {
    policy(store, redis);
    assertThatThrownBy(() -> send(slow, READ_TIMEOUT)).isInstanceOf(HttpTimeoutException.class);
    assertPermitsBack();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "redis"})
  void javaNetHttpCancelledCall(String store, RedisServer redis) throws Exception {
    policy(store, redis);
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread caller =
        new Thread(
            () -> {
              try {
                send(slow, PATIENT);
              } catch (IOException | InterruptedException | RuntimeException e) {
                failure.set(e);
              }
            });
    caller.start();
    awaitInFlight();

    caller.interrupt(); // how a synchronous send is cancelled
    caller.join(5_000);

    assertThat(failure.get()).isInstanceOf(InterruptedException.class);
    assertPermitsBack();
  }

  private HttpResponse<String> send(URI target, Duration timeout)
      throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    return partner.send(
        http,
        HttpRequest.newBuilder(target).timeout(timeout).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The one call to the slow upstream holds its permit, unanswered. */
  private void awaitInFlight() {
    await().atMost(Duration.ofSeconds(5)).until(() -> partner.openCalls() == 1);
    assertThatThrownBy(() -> partner.begin(slow, null)).isInstanceOf(OutboundLimitException.class);
  }

  private void awaitPermitsBack() {
    await().atMost(Duration.ofSeconds(8)).until(() -> partner.openCalls() == 0);
    assertPermitsBack();
  }

  /** Each upstream admits its one call again: no failed call kept a permit. */
  void assertPermitsBack() {
    assertThat(partner.openCalls()).isZero();
    for (URI target : new URI[] {slow, refused}) {
      OutboundCall next = partner.begin(target, null);
      next.abandon();
    }
  }
}
