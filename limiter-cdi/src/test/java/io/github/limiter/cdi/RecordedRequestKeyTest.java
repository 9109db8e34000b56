package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.RequestView;
import io.github.limiter.internal.http.RecordedRequest;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.context.control.RequestContextController;
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
            "limiter.policy.anywhere.limits", "1/m"));
    container =
        new Weld()
            .disableDiscovery()
            .addExtension(new LimiterExtension())
            .beanClasses(
                TestStore.class,
                WebKeyTest.CurrentRequest.class,
                Recorded.class,
                WebKeyTest.Api.class,
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

  /** Calls {@code call} in a request scope where {@code recorded} is the recorded request. */
  private static String inRequest(RequestView recorded, Runnable call) {
    RequestContextController scope = container.select(RequestContextController.class).get();
    scope.activate();
    try {
      container.select(Recorded.class).get().record(recorded);
      call.run();
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

  /** Plays limiter-jaxrs's filter: the request it recorded for the current request scope. */
  @RequestScoped
  static class Recorded implements RecordedRequest {
    private RequestView view;

    void record(RequestView view) {
      this.view = view;
    }

    @Override
    public RequestView get() {
      return view;
    }
  }
}
