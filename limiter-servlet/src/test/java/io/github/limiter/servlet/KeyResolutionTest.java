package io.github.limiter.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.security.ConstraintMapping;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.BasicAuthenticator;
import org.eclipse.jetty.util.security.Credential;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * Every key source over real HTTP. All requests come from 127.0.0.1, so whether 127.0.0.1 is a
 * trusted proxy decides whether forwarding headers count. Each policy admits one request a minute
 * per key: a 200 then a 429 means two requests shared a key.
 */
class KeyResolutionTest {

  private static Map<String, String> onePerMinute(String key, String... more) {
    return Props.with(
        Props.of(
            "limiter.policy.p.algorithm", "fixed-window",
            "limiter.policy.p.limits", "1/1m",
            "limiter.policy.p.key", key,
            "limiter.route.all.pattern", "/*",
            "limiter.route.all.policies", "p"),
        more);
  }

  private static int status(TestServer server, String... headers) throws Exception {
    return Http.get(server.uri("/"), headers).statusCode();
  }

  @Test
  void untrustedPeerCannotChangeItsKeyWithForwardingHeaders() throws Exception {
    // No trusted proxies at all, and trusted proxies that exclude 127.0.0.1.
    for (String trusted : new String[] {"", "10.0.0.0/8, ::1/128"}) {
      try (TestServer server =
          TestServer.withFilter(
              onePerMinute("remote-address", "limiter.http.trusted-proxies", trusted))) {
        assertThat(status(server)).isEqualTo(200);
        assertThat(status(server, "X-Forwarded-For", "203.0.113.1")).as(trusted).isEqualTo(429);
        assertThat(status(server, "X-Forwarded-For", "203.0.113.2, 10.0.0.1")).isEqualTo(429);
        assertThat(status(server, "Forwarded", "for=203.0.113.3")).isEqualTo(429);
        assertThat(status(server, "X-Real-IP", "203.0.113.4")).isEqualTo(429);
      }
    }
  }

  @Test
  void trustedProxyIsWalkedRightToLeft() throws Exception {
    Map<String, String> props =
        onePerMinute("remote-address", "limiter.http.trusted-proxies", "127.0.0.1/32, 10.0.0.0/8");
    try (TestServer server = TestServer.withFilter(props)) {
      assertThat(status(server, "X-Forwarded-For", "203.0.113.1")).isEqualTo(200);
      // The client prepends a fake hop: the rightmost untrusted hop is still 203.0.113.1.
      assertThat(status(server, "X-Forwarded-For", "198.51.100.9, 203.0.113.1")).isEqualTo(429);
      assertThat(status(server, "X-Forwarded-For", "203.0.113.1, 10.1.2.3")).isEqualTo(429);
      // Several header lines form one list.
      assertThat(
              status(server, "X-Forwarded-For", "198.51.100.7", "X-Forwarded-For", "203.0.113.1"))
          .isEqualTo(429);
      assertThat(status(server, "X-Forwarded-For", "203.0.113.2:4711")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "203.0.113.2")).isEqualTo(429);
      // The peer itself without headers.
      assertThat(status(server)).isEqualTo(200);
      // An unreadable hop stops the walk at the trusted node that wrote it: here the peer.
      assertThat(status(server, "X-Forwarded-For", "203.0.113.5, garbage")).isEqualTo(429);
      assertThat(status(server, "X-Forwarded-For", "203.0.113.5, unknown")).isEqualTo(429);
      // All hops trusted: the leftmost, itself a trusted address, is the client.
      assertThat(status(server, "X-Forwarded-For", "10.0.0.1, 10.0.0.2")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "10.0.0.1")).isEqualTo(429);
      assertThat(status(server, "X-Forwarded-For", "10.0.0.2")).isEqualTo(200);
      // Forwarded is not the configured header, so a client cannot slip it in.
      assertThat(status(server, "Forwarded", "for=192.0.2.200")).isEqualTo(429);
    }
  }

  @Test
  void forwardedHeaderWhenConfigured() throws Exception {
    Map<String, String> props =
        onePerMinute(
            "remote-address",
            "limiter.http.trusted-proxies",
            "127.0.0.1/32",
            "limiter.http.forwarded-header",
            "forwarded");
    try (TestServer server = TestServer.withFilter(props)) {
      assertThat(status(server, "Forwarded", "for=203.0.113.8;proto=http;by=127.0.0.1"))
          .isEqualTo(200);
      assertThat(status(server, "Forwarded", "for=198.51.100.1, For=\"203.0.113.8:999\""))
          .isEqualTo(429);
      assertThat(status(server, "Forwarded", "for=\"[2001:db8:cafe::17]:4711\"")).isEqualTo(200);
      assertThat(status(server, "Forwarded", "for=\"[2001:db8:cafe::99]\""))
          .isEqualTo(429); // same /64
      // X-Forwarded-For is ignored in this mode: the key is the peer.
      assertThat(status(server, "X-Forwarded-For", "203.0.113.77")).isEqualTo(200);
      assertThat(status(server)).isEqualTo(429);
      assertThat(status(server, "Forwarded", "for=_hidden")).isEqualTo(429);
    }
  }

  @Test
  void ipv6IsGroupedByPrefixAndMappedIpv4IsIpv4() throws Exception {
    Map<String, String> props =
        onePerMinute("remote-address", "limiter.http.trusted-proxies", "127.0.0.1/32");
    try (TestServer server = TestServer.withFilter(props)) {
      assertThat(status(server, "X-Forwarded-For", "2001:db8:1:2::1")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "2001:DB8:1:2:ffff:eeee:dddd:cccc"))
          .isEqualTo(429);
      assertThat(status(server, "X-Forwarded-For", "[2001:db8:1:2::5]:8080")).isEqualTo(429);
      assertThat(status(server, "X-Forwarded-For", "2001:db8:1:3::1")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "::ffff:203.0.113.9")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "203.0.113.9")).isEqualTo(429);
      assertThat(status(server, "X-Forwarded-For", "fe80::1%eth0")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "fe80::2%eth1")).isEqualTo(429);
    }
    try (TestServer server =
        TestServer.withFilter(Props.with(props, "limiter.http.ipv6-prefix", "128"))) {
      assertThat(status(server, "X-Forwarded-For", "2001:db8:1:2::1")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "2001:db8:1:2::2")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "2001:db8:1:2:0::1")).isEqualTo(429);
    }
  }

  @Test
  void headerKeyWithFallbackToTheAddress() throws Exception {
    try (TestServer server = TestServer.withFilter(onePerMinute("header:X-Api-Key"))) {
      assertThat(status(server, "X-Api-Key", "k1")).isEqualTo(200);
      assertThat(status(server, "X-Api-Key", " k1 ")).isEqualTo(429);
      assertThat(status(server, "X-Api-Key", "k2")).isEqualTo(200);
      // A header value that looks like the fallback key does not share its counter.
      assertThat(status(server, "X-Api-Key", "127.0.0.1")).isEqualTo(200);
      assertThat(status(server, "X-Api-Key", "ip:127.0.0.1")).isEqualTo(200);
      // No key: on-missing-key defaults to the remote address.
      assertThat(status(server)).isEqualTo(200);
      assertThat(status(server)).isEqualTo(429);
    }
  }

  @Test
  void missingKeyCanRejectOrAllow() throws Exception {
    try (TestServer server =
        TestServer.withFilter(
            onePerMinute("header:X-Api-Key", "limiter.policy.p.on-missing-key", "reject"))) {
      HttpResponse<String> rejected = Http.get(server.uri("/"));
      assertThat(rejected.statusCode()).isEqualTo(429);
      assertThat(rejected.headers().firstValue("Retry-After"))
          .isEmpty(); // it never passes without a key
      assertThat(rejected.headers().firstValue("Cache-Control")).hasValue("no-store");
      assertThat(rejected.body())
          .contains("urn:limiter:problem:missing-key")
          .contains("policy 'p'");
      assertThat(server.stats().counts("p").rejected()).isEqualTo(1);
      assertThat(status(server, "X-Api-Key", "k")).isEqualTo(200);
    }
    try (TestServer server =
        TestServer.withFilter(
            onePerMinute("header:X-Api-Key", "limiter.policy.p.on-missing-key", "allow"))) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> allowed = Http.get(server.uri("/"));
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.headers().firstValue("RateLimit")).isEmpty();
      }
      assertThat(status(server, "X-Api-Key", "k")).isEqualTo(200);
      assertThat(status(server, "X-Api-Key", "k")).isEqualTo(429);
    }
  }

  @Test
  void principalFromRealBasicAuthentication() throws Exception {
    ServletContextHandler context =
        TestServer.context(
            TestServer.filter(onePerMinute("principal", "limiter.route.all.pattern", "/secure/*")));
    UserStore users = new UserStore();
    users.addUser("alice", Credential.getCredential("pw"), new String[] {"user"});
    users.addUser("bob", Credential.getCredential("pw"), new String[] {"user"});
    HashLoginService login = new HashLoginService("test");
    login.setUserStore(users);
    ConstraintMapping mapping = new ConstraintMapping();
    mapping.setPathSpec("/secure/*");
    mapping.setConstraint(Constraint.from("user"));
    ConstraintSecurityHandler security = new ConstraintSecurityHandler();
    security.setLoginService(login);
    security.setAuthenticator(new BasicAuthenticator());
    security.addConstraintMapping(mapping);
    context.setSecurityHandler(security);
    try (TestServer server = TestServer.start(context)) {
      HttpResponse<String> alice =
          Http.get(server.uri("/secure/x"), "Authorization", basic("alice"));
      assertThat(alice.statusCode()).isEqualTo(200);
      assertThat(alice.body()).contains("user=alice");
      assertThat(Http.get(server.uri("/secure/x"), "Authorization", basic("alice")).statusCode())
          .isEqualTo(429);
      assertThat(Http.get(server.uri("/secure/x"), "Authorization", basic("bob")).statusCode())
          .isEqualTo(200);
      assertThat(Http.get(server.uri("/secure/x")).statusCode()).isEqualTo(401);
    }
  }

  private static String basic(String user) {
    return "Basic "
        + Base64.getEncoder().encodeToString((user + ":pw").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void constantKeyIsOneGlobalLimit() throws Exception {
    Map<String, String> props =
        Props.with(
            onePerMinute("constant", "limiter.http.trusted-proxies", "127.0.0.1/32"),
            "limiter.policy.p.limits",
            "2/1m");
    try (TestServer server = TestServer.withFilter(props)) {
      assertThat(status(server, "X-Forwarded-For", "203.0.113.1")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "203.0.113.2")).isEqualTo(200);
      assertThat(status(server, "X-Forwarded-For", "203.0.113.3")).isEqualTo(429);
    }
  }

  @Test
  void resolverFromServiceLoader() throws Exception {
    try (TestServer server = TestServer.withFilter(onePerMinute("resolver:tenant"))) {
      assertThat(status(server, "X-Tenant", "acme")).isEqualTo(200);
      assertThat(status(server, "X-Tenant", "acme")).isEqualTo(429);
      assertThat(status(server, "X-Tenant", "globex")).isEqualTo(200);
      assertThat(status(server)).isEqualTo(200); // fallback: the address
      assertThat(status(server)).isEqualTo(429);
    }
  }

  @Test
  void throwingResolverMeansNoKey() throws Exception {
    try (TestServer server = TestServer.withFilter(onePerMinute("resolver:boom"))) {
      assertThat(status(server)).isEqualTo(200);
      assertThat(status(server)).isEqualTo(429);
    }
  }

  @Test
  void resolverAsCdiBean() throws Exception {
    Weld weld = new Weld().disableDiscovery().addBeanClass(CdiTenantResolver.class);
    try (WeldContainer container = weld.initialize();
        TestServer server = TestServer.withFilter(onePerMinute("resolver:cdi-tenant"))) {
      assertThat(container.isRunning()).isTrue();
      assertThat(status(server, "X-Cdi-Tenant", "acme")).isEqualTo(200);
      assertThat(status(server, "X-Cdi-Tenant", "acme")).isEqualTo(429);
      assertThat(status(server, "X-Cdi-Tenant", "globex")).isEqualTo(200);
    }
  }

  /**
   * resolver:NAME must name a servlet KeyResolver only for policies the filter applies (on a
   * route).
   */
  @Test
  void aResolverPolicyOnNoRouteIsLeftToTheOtherAdapters() throws Exception {
    try (TestServer server =
        TestServer.withFilter(
            onePerMinute(
                "header:X-Api-Key",
                "limiter.policy.methods-only.algorithm",
                "fixed-window",
                "limiter.policy.methods-only.limits",
                "1/1m",
                "limiter.policy.methods-only.key",
                "resolver:only-a-cdi-interceptor-resolver"))) {
      assertThat(status(server, "X-Api-Key", "k")).isEqualTo(200);
      assertThat(status(server, "X-Api-Key", "k")).isEqualTo(429);
      assertThat(server.stats().counts("methods-only"))
          .isEqualTo(new RateLimitFilter.Stats.Counts(0, 0, 0, 0));
    }
  }

  /**
   * The same class as a bean and as a service is one resolver; two classes under one name fail the
   * deployment.
   */
  @Test
  void resolverNamesMustBeUnique() throws Exception {
    Weld same = new Weld().disableDiscovery().addBeanClass(TenantResolver.class);
    try (WeldContainer container = same.initialize();
        TestServer server = TestServer.withFilter(onePerMinute("resolver:tenant"))) {
      assertThat(container.isRunning()).isTrue();
      assertThat(status(server, "X-Tenant", "acme")).isEqualTo(200);
      assertThat(status(server, "X-Tenant", "acme")).isEqualTo(429);
    }
    Weld clash = new Weld().disableDiscovery().addBeanClass(DuplicateTenantResolver.class);
    try (WeldContainer container = clash.initialize()) {
      assertThat(container.isRunning()).isTrue();
      assertThatThrownBy(() -> TestServer.withFilter(onePerMinute("resolver:tenant")).close())
          .hasStackTraceContaining(
              "limiter.policy.p.key: more than one key resolver is named 'tenant'");
    }
  }

  @Test
  void unknownResolverFailsTheDeployment() {
    assertThatThrownBy(() -> TestServer.withFilter(onePerMinute("resolver:nosuch")).close())
        .hasStackTraceContaining("limiter.policy.p.key")
        .hasStackTraceContaining("no key resolver named 'nosuch'")
        .hasStackTraceContaining("tenant");
  }
}
