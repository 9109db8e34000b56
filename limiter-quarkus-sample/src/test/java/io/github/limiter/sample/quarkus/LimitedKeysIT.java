package io.github.limiter.sample.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.tck.redis.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code @Limited} keys taken from the Quarkus REST request, on real Quarkus (JVM mode, no
 * undertow): {@code header:X-Client} on a worker thread and on the event loop, {@code
 * remote-address} with {@code limiter.http.trusted-proxies} naming {@code 127.0.0.1} and {@code
 * 127.0.0.3}. Requests from {@code 127.0.0.2} and {@code 127.0.0.4} come from other peers, which
 * are no trusted proxies. A request through a route and a method under one policy counts once on
 * either thread. Each test has peers and clients of its own, so that none spends another's budget.
 */
class LimitedKeysIT {

  private static final String TRUSTED = "127.0.0.1";
  private static final String UNTRUSTED = "127.0.0.2";

  private static QuarkusApp app;

  @BeforeAll
  static void start() {
    Map<String, String> settings = QuarkusApp.settings(RedisServer.freePort(), null);
    settings.put("limiter.http.trusted-proxies", "127.0.0.1/32, 127.0.0.3/32");
    app = QuarkusApp.start("limited-keys", settings);
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void twoClientsHaveTwoBudgetsByHeaderOnAWorkerThreadAndOnTheEventLoop() {
    // conformance-limited: 2 a minute per X-Client, one budget for both endpoints
    assertThat(status("/api/limited", "X-Client", "header-alice")).isEqualTo(200);
    assertThat(status("/api/limited-event-loop", "X-Client", "header-alice")).isEqualTo(200);
    assertThat(status("/api/limited", "X-Client", "header-alice")).isEqualTo(429);
    assertThat(status("/api/limited-event-loop", "X-Client", "header-alice")).isEqualTo(429);

    assertThat(status("/api/limited-event-loop", "X-Client", "header-bob")).isEqualTo(200);
    assertThat(status("/api/limited", "X-Client", "header-bob")).isEqualTo(200);
    assertThat(status("/api/limited", "X-Client", "header-bob")).isEqualTo(429);
  }

  @Test
  void aRouteAndALimitedMethodUnderOnePolicyCountARequestOnceOnAWorkerAndOnTheEventLoop() {
    // sample-both: 2 a minute per X-Client, applied by the route /api/both/* and by the method
    for (String path : List.of("/api/both/blocking", "/api/both/event-loop")) {
      String client = "both" + path.replace('/', '-');
      assertThat(status(path, "X-Client", client)).as(path).isEqualTo(200);
      assertThat(status(path, "X-Client", client)).as(path).isEqualTo(200);
      assertThat(status(path, "X-Client", client)).as(path).isEqualTo(429);
    }
    // one budget over both threads
    assertThat(status("/api/both/blocking", "X-Client", "both-mixed")).isEqualTo(200);
    assertThat(status("/api/both/event-loop", "X-Client", "both-mixed")).isEqualTo(200);
    assertThat(status("/api/both/blocking", "X-Client", "both-mixed")).isEqualTo(429);
    assertThat(status("/api/both/event-loop", "X-Client", "both-mixed")).isEqualTo(429);
  }

  @Test
  void concurrentClientsEachKeepTheirOwnBudget() throws Exception {
    // 16 clients, 3 calls each, all at once over both endpoints: each client gets exactly its 2.
    int clients = 16;
    ExecutorService pool = Executors.newFixedThreadPool(clients * 3);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<String>> calls = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        String client = "concurrent-" + c;
        for (int i = 0; i < 3; i++) {
          String path = (c + i) % 2 == 0 ? "/api/limited" : "/api/limited-event-loop";
          calls.add(
              pool.submit(
                  () -> {
                    go.await();
                    return client + " " + status(path, "X-Client", client);
                  }));
        }
      }
      go.countDown();
      Map<String, List<String>> byClient = new TreeMap<>();
      for (Future<String> call : calls) {
        String[] outcome = call.get(60, TimeUnit.SECONDS).split(" ");
        byClient.computeIfAbsent(outcome[0], k -> new ArrayList<>()).add(outcome[1]);
      }
      assertThat(byClient).hasSize(clients);
      byClient.forEach(
          (client, statuses) ->
              assertThat(statuses).as(client).containsExactlyInAnyOrder("200", "200", "429"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void remoteAddressIsTheKeyAndXForwardedForCountsOnlyFromATrustedProxy() {
    // sample-address: 2 a minute per client address.
    // From an untrusted peer its X-Forwarded-For is ignored: the peer is the client.
    assertThat(from(UNTRUSTED, "X-Forwarded-For: 203.0.113.3")).isEqualTo(200);
    assertThat(from(UNTRUSTED, "X-Forwarded-For: 203.0.113.4")).isEqualTo(200);
    assertThat(from(UNTRUSTED, "X-Forwarded-For: 203.0.113.5")).isEqualTo(429);
    assertThat(from(UNTRUSTED)).isEqualTo(429);

    // Another peer is another client.
    assertThat(from(TRUSTED)).isEqualTo(200);

    // From the trusted proxy, the forwarded client is the key.
    assertThat(from(TRUSTED, "X-Forwarded-For: 203.0.113.1")).isEqualTo(200);
    assertThat(from(TRUSTED, "X-Forwarded-For: 198.51.100.7, 203.0.113.1")).isEqualTo(200);
    assertThat(from(TRUSTED, "X-Forwarded-For: 203.0.113.1")).isEqualTo(429);
    assertThat(from(TRUSTED, "X-Forwarded-For: 203.0.113.2")).isEqualTo(200);
    assertThat(from(TRUSTED)).isEqualTo(200); // 127.0.0.1's second
    assertThat(from(TRUSTED)).isEqualTo(429);
  }

  @Test
  void badHeadersNeverCauseAServerError() {
    String[][] badHeaders = {
      {"X-Client: "},
      {"X-Client:    "},
      {"X-Client: a\u0001b"},
      {"X-Client: caf\u00e9\u00ff"},
      {"X-Client: one", "X-Client: two"},
      {"X-Client: " + "x".repeat(4000)},
      {"X-Forwarded-For: garbage, , unknown, 999.999.1.1, [::1"},
      {"X-Forwarded-For: " + ",".repeat(2000)},
      {"X-Forwarded-For: 203.0.113.1:99999", "X-Forwarded-For: _hidden"},
      {"Forwarded: for=\"[2001:db8::1\";by=;;"},
    };
    for (String path :
        List.of("/api/route", "/api/limited", "/api/limited-event-loop", "/api/by-address")) {
      for (String[] headers : badHeaders) {
        for (String peer : List.of("127.0.0.3", "127.0.0.4")) {
          assertThat(app.statusFrom(peer, path, headers))
              .as("%s from %s with %s", path, peer, String.join(" | ", headers))
              .isIn(200, 400, 429);
        }
      }
    }
    // The application still serves.
    assertThat(status("/api/limited", "X-Client", "after-bad-headers")).isEqualTo(200);
  }

  private static int status(String path, String header, String value) {
    return app.get(path, header, value).statusCode();
  }

  private static int from(String peer, String... headerLines) {
    return app.statusFrom(peer, "/api/by-address", headerLines);
  }
}
