package io.github.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.it.app.hello.HelloServlet;
import io.github.limiter.it.harness.Deployed;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.LimiterLibraries;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import io.github.limiter.it.harness.ServerLog;
import io.github.limiter.it.harness.Settings;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The harness itself: a trivial servlet WAR deploys, serves on loopback, and carries the Limiter
 * jars.
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class HarnessIT {

  @Deployment
  static WebArchive app() {
    return ShrinkWrap.create(WebArchive.class, "harness.war").addClass(HelloServlet.class);
  }

  @ArquillianResource URL url;

  @Test
  void servesTheServlet() {
    HttpResponse<String> response = Http.get(Deployed.base(url).resolve("hello"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).startsWith("hello from ");
  }

  @Test
  void addsEveryLimiterJarToTheWar() {
    HttpResponse<String> response = Http.get(URI.create(Deployed.base(url) + "hello?libs"));

    assertThat(response.statusCode()).isEqualTo(200);
    for (Path jar : LimiterLibraries.jars()) {
      assertThat(response.body()).contains("/WEB-INF/lib/" + jar.getFileName());
    }
  }

  @Test
  void bindsOnlyToLoopback() {
    String log = ServerLog.text();

    assertThat(Deployed.base(url).getHost()).isEqualTo("127.0.0.1");
    // Payara: "http-listener started in: 41ms - bound to [/127.0.0.1:28080]" and Hazelcast's
    // "Member [127.0.0.1]:6900"; WildFly: "listening on 127.0.0.1:29080"; Open Liberty: "listening
    // for requests on host localhost  (IPv4: 127.0.0.1) port 28080". Never the wildcard address.
    assertThat(log)
        .contains(
            switch (Settings.container()) {
              case "payara" -> "bound to [/127.0.0.1:" + url.getPort() + "]";
              case "openliberty" -> "(IPv4: 127.0.0.1) port " + url.getPort() + ".";
              default -> "listening on 127.0.0.1:" + url.getPort();
            });
    assertThat(ServerLog.listenerAddresses(log)).containsOnly("127.0.0.1");
  }
}
