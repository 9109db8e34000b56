package io.github.limiter.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Client-address keys: the one implementation both adapters call (moved here from the CDI module).
 */
class ClientAddressTest {

  private static ClientAddress trusting(String... proxies) {
    return new ClientAddress(new HttpSettings(429, 503, true, false, List.of(proxies), 64));
  }

  private static Function<String, Enumeration<String>> headers(String... namesAndValues) {
    Map<String, List<String>> map = new HashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      map.computeIfAbsent(namesAndValues[i], k -> new ArrayList<>()).add(namesAndValues[i + 1]);
    }
    return name -> map.containsKey(name) ? Collections.enumeration(map.get(name)) : null;
  }

  @Test
  void forwardedHeadersOfAnUntrustedPeerAreIgnored() {
    assertThat(trusting("10.0.0.0/8").key("192.0.2.1", headers("X-Forwarded-For", "203.0.113.7")))
        .isEqualTo("ip:192.0.2.1");
    assertThat(trusting().key("192.0.2.1", headers("X-Forwarded-For", "203.0.113.7")))
        .isEqualTo("ip:192.0.2.1");
  }

  @Test
  void hopsAreWalkedFromTheRightToTheFirstUntrustedOne() {
    ClientAddress addresses = trusting("10.0.0.0/8", "192.168.1.7");
    // the client can forge the leftmost entries, never the ones the trusted proxies appended
    String forged = "6.6.6.6, 203.0.113.7, 10.1.2.3";
    assertThat(addresses.key("192.168.1.7", headers("X-Forwarded-For", forged)))
        .isEqualTo("ip:203.0.113.7");
    // several header lines are one list
    assertThat(
            addresses.key(
                "10.0.0.1",
                headers("X-Forwarded-For", "203.0.113.9", "X-Forwarded-For", "10.0.0.2")))
        .isEqualTo("ip:203.0.113.9");
    // every hop trusted: the leftmost
    assertThat(addresses.key("10.0.0.1", headers("X-Forwarded-For", "10.9.9.9, 10.0.0.2")))
        .isEqualTo("ip:10.9.9.9");
  }

  @Test
  void anUnreadableHopStopsAtTheTrustedNodeThatWroteIt() {
    ClientAddress addresses = trusting("10.0.0.0/8");
    assertThat(addresses.key("10.0.0.1", headers("X-Forwarded-For", "evil.example.com, 10.0.0.5")))
        .isEqualTo("ip:10.0.0.5");
    assertThat(addresses.key("10.0.0.1", headers("X-Forwarded-For", "unknown")))
        .isEqualTo("ip:10.0.0.1");
  }

  @Test
  void onlyTheConfiguredHeaderIsBelieved() {
    ClientAddress forwarded =
        new ClientAddress(
            new HttpSettings(
                429,
                503,
                true,
                false,
                List.of("10.0.0.0/8"),
                64,
                HttpSettings.ForwardedHeader.FORWARDED));
    Function<String, Enumeration<String>> both =
        headers(
            "Forwarded", "for=192.0.2.60:8080;proto=http;by=10.0.0.1, for=\"[2001:db8::7]:443\"",
            "X-Forwarded-For", "198.51.100.1");
    assertThat(forwarded.key("10.0.0.1", both)).isEqualTo("ip:2001:db8::/64");
    assertThat(forwarded.key("10.0.0.1", headers("Forwarded", "for=_hidden")))
        .isEqualTo("ip:10.0.0.1");
    assertThat(trusting("10.0.0.0/8").key("10.0.0.1", both)).isEqualTo("ip:198.51.100.1");
  }

  @Test
  void ipv6ClientsAreGroupedByPrefixInRfc5952Text() {
    assertThat(trusting().key("2001:DB8:1:2:aaaa::1", headers())).isEqualTo("ip:2001:db8:1:2::/64");
    ClientAddress whole =
        new ClientAddress(new HttpSettings(429, 503, true, false, List.of(), 128));
    assertThat(whole.key("2001:db8:0:0:1:0:0:1", headers())).isEqualTo("ip:2001:db8::1:0:0:1");
    assertThat(whole.key("[::1]", headers())).isEqualTo("ip:::1");
    // an IPv4-mapped address is the IPv4 client
    assertThat(trusting().key("::ffff:192.0.2.1", headers())).isEqualTo("ip:192.0.2.1");
  }

  @Test
  void rfc5952Text() throws Exception {
    assertThat(text("2001:db8:0:0:0:0:2:1")).isEqualTo("2001:db8::2:1");
    assertThat(text("2001:db8:0:1:1:1:1:1"))
        .isEqualTo("2001:db8:0:1:1:1:1:1"); // one zero group stays
    assertThat(text("2001:0:0:1:0:0:0:1")).isEqualTo("2001:0:0:1::1"); // the longest run
    assertThat(text("2001:db8:0:0:1:0:0:1"))
        .isEqualTo("2001:db8::1:0:0:1"); // the first of equal runs
    assertThat(text("0:0:0:0:0:0:0:0")).isEqualTo("::");
    assertThat(text("1:0:0:0:0:0:0:0")).isEqualTo("1::");
  }

  private static String text(String address) throws Exception {
    return IpAddress.format(InetAddress.getByName(address).getAddress());
  }

  @Test
  void onlyLiteralsAreParsedNeverNames() {
    assertThat(IpAddress.parse("localhost")).isNull();
    assertThat(IpAddress.parse("1.2.3")).isNull();
    assertThat(IpAddress.parse("fe80::1%eth0")).isNotNull();
  }

  @Test
  void badTrustedProxyNamesTheKeyAndValue() {
    assertThatThrownBy(
            () ->
                io.github.limiter.internal.config.LimiterConfig.from(
                    io.github.limiter.spi.ConfigLookup.of(
                        Map.of("limiter.http.trusted-proxies", "10.0.0.0/33"))))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "limiter.http.trusted-proxies: expected CIDRs such as 10.0.0.0/8, 192.168.1.7 or ::1/128,"
                + " was '10.0.0.0/33'");
  }

  @Test
  void aNonIpPeerIsKeyedByItsTextAndTheHeaderNameIsTheConfiguredOne() {
    assertThat(trusting("10.0.0.0/8").key("unix:/tmp/socket", headers()))
        .isEqualTo("ip:unix:/tmp/socket");
    assertThat(trusting().key("192.0.2.1", name -> null)).isEqualTo("ip:192.0.2.1");
    assertThat(trusting("10.0.0.0/8").key("10.0.0.1", name -> null)).isEqualTo("ip:10.0.0.1");
    assertThat(trusting().headerName()).isEqualTo("X-Forwarded-For");
  }

  @Test
  void keysHaveOnePrefixPerSource() {
    assertThat(ClientKeys.header(" k1 ")).isEqualTo("h:k1");
    assertThat(ClientKeys.header(" ")).isNull();
    assertThat(ClientKeys.header(null)).isNull();
    assertThat(ClientKeys.header("a\u0001b")).isNull();
    assertThat(ClientKeys.header("a\u007fb")).isNull();
    assertThat(ClientKeys.parameter(" 42 ")).isEqualTo("a:42");
    assertThat(ClientKeys.parameter("\t")).isNull();
    assertThat(ClientKeys.principal(" alice ")).isEqualTo("p: alice ");
    assertThat(ClientKeys.principal("")).isNull();
    assertThat(ClientKeys.resolver("t1")).isEqualTo("r:t1");
    assertThat(ClientKeys.resolver(" ")).isNull();
    assertThat(ClientKeys.CONSTANT).isEqualTo("c:global");
    assertThat(ClientKeys.ADDRESS).isEqualTo("ip:");
  }
}
