package io.github.limiter.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CidrTest {

  @Test
  void matchesItsNetworkOnly() {
    Cidr ten = Cidr.parse("10.0.0.0/8");
    assertThat(ten.contains(IpAddress.parse("10.255.1.2"))).isTrue();
    assertThat(ten.contains(IpAddress.parse("11.0.0.1"))).isFalse();
    assertThat(ten.contains(IpAddress.parse("::ffff:10.1.2.3"))).isTrue();
    assertThat(ten.contains(IpAddress.parse("::a01:203"))).isFalse();
    Cidr odd = Cidr.parse("192.168.4.0/22");
    assertThat(odd.contains(IpAddress.parse("192.168.7.255"))).isTrue();
    assertThat(odd.contains(IpAddress.parse("192.168.8.0"))).isFalse();
    Cidr host = Cidr.parse("127.0.0.1");
    assertThat(host.contains(IpAddress.parse("127.0.0.1"))).isTrue();
    assertThat(host.contains(IpAddress.parse("127.0.0.2"))).isFalse();
    Cidr v6 = Cidr.parse("2001:db8::/32");
    assertThat(v6.contains(IpAddress.parse("2001:db8:ffff::1"))).isTrue();
    assertThat(v6.contains(IpAddress.parse("2001:db9::1"))).isFalse();
    assertThat(Cidr.parse("::ffff:10.0.0.0/104")).isEqualTo(ten);
    assertThat(Cidr.parse("0.0.0.0/0").contains(IpAddress.parse("203.0.113.1"))).isTrue();
  }

  @Test
  void rejectsBadText() {
    for (String bad :
        new String[] {
          "10.0.0.0/33",
          "10.0.0.0/",
          "10.0.0/8",
          "::1/129",
          "example.com/8",
          "10.0.0.0/-1",
          "10.0.0.0/8/8",
          "::ffff:10.0.0.0/95",
          "10.0.0.0/ 8"
        }) {
      assertThatThrownBy(() -> Cidr.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("was '" + bad.trim() + "'");
    }
  }
}
