package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.RequestView;
import io.github.limiter.internal.http.RecordedRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.control.RequestContextController;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keys from the request an HTTP adapter recorded in its request-scoped {@link RecordedRequest} bean
 * (limiter-jaxrs's filter on Quarkus REST), read by the same core code as the servlet request's.
 * The container also has the request-scoped {@code HttpServletRequest} bean, as with {@code
 * quarkus-undertow}, but the calls serve no servlet request: the recorded one is used.
 */
class RecordedRequestKeyTest {

  private static WeldContainer container;

  @BeforeAll
  static void start() {
    TestConfig.use(
        TestConfig.of(
            "limiter.http.trusted-proxies", "127.0.0.1/32",
            "limiter.policy.per-ip.algorithm", "fixed-window",
            "limiter.policy.per-ip.limits", "2/m",
            "limiter.policy.proxied.algorithm", "fixed-window",
            "limiter.policy.proxied.limits", "1/m",
            "limiter.policy.per-key.algorithm", "fixed-window",
            "limiter.policy.per-key.limits", "1/m",
            "limiter.policy.per-key.key", "header:X-Api-Key",
            "limiter.policy.per-key.on-missing-key", "reject",
            "limiter.policy.per-user.algorithm", "fixed-window",
            "limiter.policy.per-user.limits", "1/m",
            "limiter.policy.per-user.key", "principal",
            "limiter.policy.anywhere.algorithm", "fixed-window",
            "limiter.policy.anywhere.limits", "1/m",
            "limiter.policy.routed.algorithm", "fixed-window",
            "limiter.policy.routed.limits", "1/m",
            "limiter.policy.routed.key", "header:X-Client"));
    container =
        new Weld()
            .disableDiscovery()
            .addExtension(new LimiterExtension())
            .beanClasses(
                TestStore.class,
                WebKeyTest.CurrentRequest.class,
                Recorded.class,
                WebKeyTest.Api.class,
                Routed.class,
                WebKeyTest.SeenKeys.class)
            .initialize();
  }

  @AfterAll
  static void stop() {
    try {
      container.close();
    } finally {
      TestConfig.clear();
    }
  }

  @Test
  void headerOfTheRecordedRequestIsTheKey() {
    WebKeyTest.Api api = container.select(WebKeyTest.Api.class).get();
    assertThat(inRequest(request("10.1.1.1", "X-Api-Key", " k1 "), api::key)).isEqualTo("h:k1");
    assertThat(inRequest(request("10.1.1.2", "X-Api-Key", "k1"), api::key)).isEqualTo("rejected");
    assertThat(inRequest(request("10.1.1.1", "X-Api-Key", "k2"), api::key)).isEqualTo("h:k2");
    // on-missing-key=reject: a request without the header is refused, not keyed by the address
    assertThat(inRequest(request("10.1.1.3"), api::key)).isEqualTo("rejected");
  }

  @Test
  void principalOfTheRecordedRequestIsTheKey() {
    WebKeyTest.Api api = container.select(WebKeyTest.Api.class).get();
    assertThat(inRequest(request("10.2.1.1", "user", "dora"), api::user)).isEqualTo("p:dora");
    assertThat(inRequest(request("10.2.1.2", "user", "dora"), api::user)).isEqualTo("rejected");
    assertThat(inRequest(request("10.2.1.1", "user", "erin"), api::user)).isEqualTo("p:erin");
  }

  @Test
  void forwardedClientCountsOnlyFromATrustedProxy() {
    WebKeyTest.Api api = container.select(WebKeyTest.Api.class).get();
    // 127.0.0.1 is a trusted proxy: the hop before it is the client
    assertThat(inRequest(request("127.0.0.1", "X-Forwarded-For", "203.0.113.7"), api::proxied))
        .isEqualTo("ip:203.0.113.7");
    // 192.0.2.1 is not: its X-Forwarded-For is ignored
    assertThat(inRequest(request("192.0.2.1", "X-Forwarded-For", "203.0.113.8"), api::proxied))
        .isEqualTo("ip:192.0.2.1");
    assertThat(inRequest(request("192.0.2.1", "X-Forwarded-For", "203.0.113.9"), api::proxied))
        .isEqualTo("rejected");
  }

  @Test
  void outsideARequestScopeOrWithNothingRecordedTheKeyIsConstant() {
    WebKeyTest.Api api = container.select(WebKeyTest.Api.class).get();
    api.anywhere(); // no request scope: the one constant key
    assertThat(container.select(WebKeyTest.SeenKeys.class).get().last()).isEqualTo("c:global");
    // a request scope in which no adapter recorded a request (a timer, a message): the same key
    assertThat(inRequest(null, api::anywhere)).isEqualTo("rejected");
    assertThatThrownBy(api::anywhere).isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void policiesTheRecordedRequestWasChargedAreNotCountedAgain() {
    Routed routed = container.select(Routed.class).get();
    // A route charged "routed" for these requests: the calls in them pass, however many.
    List<String> charged = List.of("routed");
    Runnable twice =
        () -> {
          routed.call();
          routed.call();
        };
    assertThat(inRequest(request("10.3.1.1", "X-Client", "c1"), charged, twice)).isEqualTo("ok");
    assertThat(inRequest(request("10.3.1.1", "X-Client", "c1"), charged, routed::call))
        .isEqualTo("ok");
    // Nothing charged by a route: the call counts, 1 a minute for c1.
    assertThat(inRequest(request("10.3.1.1", "X-Client", "c1"), routed::call)).isEqualTo("h:c1");
    assertThat(inRequest(request("10.3.1.1", "X-Client", "c1"), routed::call))
        .isEqualTo("rejected");
    // Another policy charged by a route leaves this one counted.
    assertThat(inRequest(request("10.3.1.1", "X-Client", "c2"), List.of("per-key"), twice))
        .isEqualTo("rejected");
  }

  /** Calls {@code call} in a request scope where {@code recorded} is the recorded request. */
  private static String inRequest(RequestView recorded, Runnable call) {
    return inRequest(recorded, List.of(), call);
  }

  /**
   * Calls {@code call} in a request scope where {@code recorded} is the recorded request, for which
   * a route charged {@code charged}.
   */
  private static String inRequest(RequestView recorded, List<String> charged, Runnable call) {
    RequestContextController scope = container.select(RequestContextController.class).get();
    scope.activate();
    try {
      Recorded request = container.select(Recorded.class).get();
      request.record(recorded);
      request.charge(charged);
      call.run();
      if (!charged.isEmpty()) {
        return "ok"; // a call skipped by every policy fires no event to read a key from
      }
      return container.select(WebKeyTest.SeenKeys.class).get().last();
    } catch (RateLimitExceededException e) {
      return "rejected";
    } finally {
      scope.deactivate();
    }
  }

  /**
   * A request from {@code address} with {@code headers} (name, value, ...); "user" names the
   * principal.
   */
  private static RequestView request(String address, String... headers) {
    Map<String, String> values = new java.util.HashMap<>();
    for (int i = 0; i < headers.length; i += 2) {
      values.put(headers[i], headers[i + 1]);
    }
    return new RequestView() {
      @Override
      public String remoteAddress() {
        return address;
      }

      @Override
      public String header(String name) {
        return values.get(name);
      }

      @Override
      public Enumeration<String> headers(String name) {
        String value = values.get(name);
        return Collections.enumeration(value == null ? List.of() : List.of(value));
      }

      @Override
      public String principal() {
        return values.get("user");
      }

      @Override
      public <T> T unwrap(Class<T> type) {
        return null;
      }
    };
  }

  /** A method under the policy that a route charged in some requests. */
  @ApplicationScoped
  static class Routed {
    @Limited("routed")
    public String call() {
      return "ok";
    }
  }

  /**
   * Plays limiter-jaxrs's filter: the request it recorded for the current request scope, and what
   * its route charged.
   */
  @RequestScoped
  static class Recorded implements RecordedRequest {
    private RequestView view;
    private Collection<String> charged = List.of();

    void charge(Collection<String> policies) {
      this.charged = policies;
    }

    @Override
    public Collection<String> charged() {
      return charged;
    }

    void record(RequestView view) {
      this.view = view;
    }

    @Override
    public RequestView get() {
      return view;
    }
  }
}
