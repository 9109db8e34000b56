package io.github.limiter.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class IpAddressTest {

  @Test
  void parsesLiteralsOnly() {
    assertThat(IpAddress.format(IpAddress.parse("192.0.2.1"))).isEqualTo("192.0.2.1");
    assertThat(IpAddress.format(IpAddress.parse("2001:DB8::1"))).isEqualTo("2001:db8::1");
    assertThat(IpAddress.format(IpAddress.parse("[::1]"))).isEqualTo("::1");
    assertThat(IpAddress.format(IpAddress.parse("::"))).isEqualTo("::");
    assertThat(IpAddress.format(IpAddress.parse("1:2:3:4:5:6:7:8"))).isEqualTo("1:2:3:4:5:6:7:8");
    assertThat(IpAddress.format(IpAddress.parse("1:0:0:4:0:0:0:8"))).isEqualTo("1:0:0:4::8");
    assertThat(IpAddress.format(IpAddress.parse("64:ff9b::192.0.2.33")))
        .isEqualTo("64:ff9b::c000:221");
    for (String bad :
        new String[] {
          "", "localhost", "example.com", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3.4 ",
              "-1.2.3.4",
          ":::", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", "12345::", "::g", "1:", ":1",
              "[1.2.3.4]",
          "[::1", "fe80::1%", "fe80::1%e$h", "::1.2.3", "1:2:3:4:5:6:7:1.2.3.4", "0x7f.0.0.1",
              "١.٢.٣.٤"
        }) {
      assertThat(IpAddress.parse(bad)).as(bad).isNull();
    }
  }

  @Test
  void mappedIpv4IsIpv4AndZonesAreDropped() {
    assertThat(IpAddress.parse("::ffff:192.0.2.7")).containsExactly(192, 0, 2, 7);
    assertThat(IpAddress.parse("::FFFF:c000:0207")).containsExactly(192, 0, 2, 7);
    assertThat(IpAddress.format(IpAddress.parse("fe80::1%eth0"))).isEqualTo("fe80::1");
  }

  @Test
  void nodesMayCarryPorts() {
    assertThat(IpAddress.format(IpAddress.parseNode("192.0.2.1:8080"))).isEqualTo("192.0.2.1");
    assertThat(IpAddress.format(IpAddress.parseNode("[2001:db8::17]:4711")))
        .isEqualTo("2001:db8::17");
    assertThat(IpAddress.format(IpAddress.parseNode(" 2001:db8::17 "))).isEqualTo("2001:db8::17");
    assertThat(IpAddress.format(IpAddress.parseNode("[2001:db8::17]:_port")))
        .isEqualTo("2001:db8::17");
    for (String bad :
        new String[] {
          "unknown", "_hidden", "192.0.2.1:", "192.0.2.1:123456", "[::1]x", "[::1]:a"
        }) {
      assertThat(IpAddress.parseNode(bad)).as(bad).isNull();
    }
  }

  @Test
  void masksByPrefix() {
    byte[] address = IpAddress.parse("2001:db8:aaaa:bbbb:1:2:3:4");
    assertThat(IpAddress.format(IpAddress.masked(address, 64))).isEqualTo("2001:db8:aaaa:bbbb::");
    assertThat(IpAddress.format(IpAddress.masked(address, 56))).isEqualTo("2001:db8:aaaa:bb00::");
  }

  static Stream<Named<byte[]>> ipv6Addresses() {
    return RandomCases.of(616, 500, random -> RandomCases.bytes(random, 16));
  }

  static Stream<Named<byte[]>> ipv4Addresses() {
    return RandomCases.of(44, 200, random -> RandomCases.bytes(random, 4));
  }

  static Stream<Named<String>> garbage() {
    return RandomCases.of(1234, 500, RandomCases::text);
  }

  /**
   * Whatever the JDK writes for 16 bytes (no DNS: getByAddress resolves nothing), we read back the
   * same bytes.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("ipv6Addresses")
  void readsWhatTheJdkWrites(byte[] bytes) throws UnknownHostException {
    String text = InetAddress.getByAddress(bytes).getHostAddress();
    byte[] parsed = IpAddress.parse(text);
    byte[] expected = IpAddress.unmapped(bytes);
    assertThat(parsed).isEqualTo(expected);
    assertThat(IpAddress.parse(IpAddress.format(parsed))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("ipv4Addresses")
  void readsIpv4(byte[] bytes) throws UnknownHostException {
    String text = InetAddress.getByAddress(bytes).getHostAddress();
    assertThat(IpAddress.parse(text)).isEqualTo(bytes);
    assertThat(IpAddress.format(bytes)).isEqualTo(text);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("garbage")
  void neverThrowsOnGarbage(String text) {
    byte[] parsed = IpAddress.parseNode(text);
    assertThat(parsed == null || parsed.length == 4 || parsed.length == 16).isTrue();
  }
}
