package io.github.limiter.it.harness;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The listener lines the loopback checks read, as Payara, Hazelcast and WildFly write them. */
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
        """;

    assertThat(ServerLog.listenerAddresses(log))
        .containsOnly("[0:0:0:0:0:0:0:0]", "192.0.2.2", "[::]");
  }
}
