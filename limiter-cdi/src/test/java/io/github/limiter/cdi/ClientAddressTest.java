package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.config.ConfigException;
import io.github.limiter.config.HttpSettings;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ClientAddressTest {

  private static ClientAddress trusting(String... proxies) {
    return new ClientAddress(new HttpSettings(429, 503, true, false, List.of(proxies), 64));
  }

  private static Function<String, List<String>> headers(String... namesAndValues) {
    Map<String, List<String>> map = new java.util.HashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      map.computeIfAbsent(namesAndValues[i], k -> new java.util.ArrayList<>()).add(namesAndValues[i + 1]);
    }
    return name -> map.getOrDefault(name, List.of());
  }

  @Test
  void forwardedHeadersOfAnUntrustedPeerAreIgnored() {
    ClientAddress addresses = trusting("10.0.0.0/8");
    assertThat(addresses.resolve("192.0.2.1", headers("X-Forwarded-For", "203.0.113.7"))).isEqualTo("192.0.2.1");
    assertThat(trusting().resolve("192.0.2.1", headers("X-Forwarded-For", "203.0.113.7"))).isEqualTo("192.0.2.1");
  }

  @Test
  void hopsAreWalkedFromTheRightToTheFirstUntrustedOne() {
    ClientAddress addresses = trusting("10.0.0.0/8", "192.168.1.7");
    // the client can forge the leftmost entries, never the ones the trusted proxies appended
    String forged = "6.6.6.6, 203.0.113.7, 10.1.2.3";
    assertThat(addresses.resolve("192.168.1.7", headers("X-Forwarded-For", forged))).isEqualTo("203.0.113.7");
    // several header lines are one list
    assertThat(addresses.resolve("10.0.0.1", headers("X-Forwarded-For", "203.0.113.9", "X-Forwarded-For", "10.0.0.2")))
        .isEqualTo("203.0.113.9");
  }

  @Test
  void anObfuscatedHopStopsAtTheLastTrustedProxy() {
    ClientAddress addresses = trusting("10.0.0.0/8");
    assertThat(addresses.resolve("10.0.0.1", headers("Forwarded", "for=unknown, for=10.0.0.5"))).isEqualTo("10.0.0.5");
    assertThat(addresses.resolve("10.0.0.1", headers("X-Forwarded-For", "evil.example.com"))).isEqualTo("10.0.0.1");
  }

  @Test
  void forwardedWinsOverXForwardedFor() {
    ClientAddress addresses = trusting("10.0.0.0/8");
    assertThat(addresses.resolve("10.0.0.1",
        headers("Forwarded", "for=192.0.2.60:8080;proto=http;by=10.0.0.1", "X-Forwarded-For", "198.51.100.1")))
        .isEqualTo("192.0.2.60");
  }

  @Test
  void ipv6ClientsAreGroupedByPrefix() {
    assertThat(trusting().resolve("2001:db8:1:2:aaaa::1", headers())).isEqualTo("2001:db8:1:2:0:0:0:0/64");
    assertThat(new ClientAddress(new HttpSettings(429, 503, true, false, List.of(), 128)).resolve("2001:db8::1", headers()))
        .isEqualTo("2001:db8:0:0:0:0:0:1");
    // an IPv4-mapped address is the IPv4 client
    assertThat(trusting().resolve("::ffff:192.0.2.1", headers())).isEqualTo("192.0.2.1");
  }

  @Test
  void onlyLiteralsAreParsedNeverNames() {
    assertThat(ClientAddress.literal("localhost")).isNull();
    assertThat(ClientAddress.literal("1.2.3")).isNull();
    assertThat(ClientAddress.literal("fe80::1%eth0")).isNotNull();
  }

  @Test
  void badTrustedProxyNamesTheKeyAndValue() {
    assertThatThrownBy(() -> trusting("10.0.0.0/33"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("limiter.http.trusted-proxies: expected CIDRs such as 10.0.0.0/8, 192.168.1.7 or ::1/128,"
            + " was '10.0.0.0/33'");
  }
}
