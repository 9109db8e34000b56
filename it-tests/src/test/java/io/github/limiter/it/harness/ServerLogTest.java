package io.github.limiter.it.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The listener lines the loopback checks read, as Payara, Hazelcast, WildFly and Open Liberty write
 * them.
 */
class ServerLogTest {

  @Test
  void findsTheAddressOfEveryListenerLine() {
    String log =
        """
        [INFO] Network Listener http-listener started in: 41ms - bound to [/127.0.0.1:28080]
        [INFO] Grizzly 4.0.2 started in: 1,566ms - bound to [http-listener:28080]
        [INFO] Members {size:2, ver:2} [ Member [127.0.0.1]:6900 - 3c2a this ]
        INFO  WFLYUT0006: Undertow HTTP listener default listening on 127.0.0.1:29080
        INFO  WFLYSRV0060: Http management interface listening on http://127.0.0.1:30990/management
        I CWWKO0219I: TCP Channel defaultHttpEndpoint has been started and is now listening for \
        requests on host localhost  (IPv4: 127.0.0.1) port 46819.
        """;

    assertThat(ServerLog.listenerAddresses(log)).containsOnly("127.0.0.1");
  }

  @Test
  void reportsAWildcardOrExternalAddress() {
    String log =
        """
        [INFO] Network Listener http-listener started in: 41ms - bound to [/[0:0:0:0:0:0:0:0]:8080]
        INFO  WFLYUT0006: Undertow HTTP listener default listening on 192.0.2.2:8080
        [INFO] Members {size:1, ver:1} [ Member [192.0.2.2]:6900 - 3c2a this ]
        INFO  WFLYUT0006: Undertow HTTPS listener https listening on [::]:8443
        I CWWKO0219I: TCP Channel defaultHttpEndpoint has been started and is now listening for \
        requests on host *  (IPv6) port 9080.
        I CWWKO0219I: TCP Channel defaultHttpEndpoint has been started and is now listening for \
        requests on host example.org  (IPv4: 192.0.2.3) port 9080.
        """;

    assertThat(ServerLog.listenerAddresses(log))
        .containsOnly("[0:0:0:0:0:0:0:0]", "192.0.2.2", "[::]", "IPv6", "192.0.2.3");
  }
}
