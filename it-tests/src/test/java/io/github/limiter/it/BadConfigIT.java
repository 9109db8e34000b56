package io.github.limiter.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.internal.log.StartLog;
import io.github.limiter.it.app.cdi.GreetServlet;
import io.github.limiter.it.app.cdi.GreetingService;
import io.github.limiter.it.app.conformance.LimitedGreeter;
import io.github.limiter.it.app.servlet.EchoServlet;
import io.github.limiter.it.harness.Http;
import io.github.limiter.it.harness.PrintServerLogOnFailure;
import io.github.limiter.it.harness.ServerLog;
import io.github.limiter.it.harness.Settings;
import java.io.File;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A bad configuration fails the deployment, not the first request, with a message that names the
 * key and the bad value. WildFly fails the deploy itself; Payara Micro boots without the
 * application and says why only in its log: both are checked the same way, by the log and by the
 * application not being there.
 */
@ExtendWith({ArquillianExtension.class, PrintServerLogOnFailure.class})
@RunAsClient
class BadConfigIT {

  @Deployment(name = "bad-filter", managed = false)
  static WebArchive badFilter() {
    return ShrinkWrap.create(WebArchive.class, "bad-filter.war")
        .addClass(EchoServlet.class)
        .setWebXML(new File("src/test/webapps/bad-filter/WEB-INF/web.xml"));
  }

  @Deployment(name = "bad-policy", managed = false)
  static WebArchive badPolicy() {
    return ShrinkWrap.create(WebArchive.class, "bad-policy.war")
        .addClasses(GreetingService.class, GreetServlet.class)
        .addAsResource(
            new StringAsset(
                "limiter.policy.bean.algorithm=token-bukket\nlimiter.policy.bean.limits=2/m\n"),
            "META-INF/microprofile-config.properties");
  }

  /**
   * A policy keyed by a resolver that no bean or service provides: only the application's beans can
   * say, so the portable extension checks it at validation.
   */
  @Deployment(name = "bad-resolver", managed = false)
  static WebArchive badResolver() {
    return ShrinkWrap.create(WebArchive.class, "bad-resolver.war")
        .addClasses(GreetingService.class, GreetServlet.class, LimitedGreeter.class)
        .addAsResource(
            new StringAsset(
                "limiter.policy.bean.algorithm=token-bucket\nlimiter.policy.bean.limits=2/m\n"
                    + "limiter.policy.conformance-limited.algorithm=fixed-window\n"
                    + "limiter.policy.conformance-limited.limits=2/m\n"
                    + "limiter.policy.conformance-limited.key=resolver:nobody\n"),
            "META-INF/microprofile-config.properties");
  }

  @Deployment(name = "sync-shaping-filter", managed = false)
  static WebArchive syncShapingFilter() {
    return ShrinkWrap.create(WebArchive.class, "sync-shaping-filter.war")
        .addClass(EchoServlet.class)
        .setWebXML(new File("src/test/webapps/sync-shaping-filter/WEB-INF/web.xml"));
  }

  @ArquillianResource Deployer deployer;

  @Test
  void aBadFilterInitParamFailsTheDeploymentNamingTheKey() {
    Failure failure = deployExpectingFailure("bad-filter", "api/x");

    assertThat(failure.all()).contains("limiter.policy.api.limits").contains("10 per sec");
    // Issue 36.1: one SEVERE line says it, however the server goes on
    assertThat(failureLine(failure.log()))
        .startsWith(
            "LIMITER CONFIGURATION FAILED: 1 problem in RateLimitFilter 'limiter': (1)"
                + " limiter.policy.api.limits: ")
        .endsWith("was '10 per sec'");
  }

  @Test
  void aBadPolicyOfALimitedBeanFailsTheDeploymentNamingTheKey() {
    Failure failure = deployExpectingFailure("bad-policy", "greet?user=x");

    assertThat(failure.all()).contains("limiter.policy.bean.algorithm").contains("token-bukket");
    assertThat(failureLine(failure.log()))
        .startsWith(
            "LIMITER CONFIGURATION FAILED: 1 problem in @Limited: (1)"
                + " limiter.policy.bean.algorithm: expected fixed-window, ")
        .endsWith("was 'token-bukket'; did you mean 'token-bucket'?");
  }

  @Test
  void aKeyResolverThatNoBeanProvidesFailsTheDeploymentNamingTheKey() {
    Failure failure = deployExpectingFailure("bad-resolver", "greet?user=x");

    assertThat(failure.all())
        .contains("limiter.policy.conformance-limited.key=resolver:nobody")
        .contains("no key resolver named 'nobody'");
    assertThat(failureLine(failure.log()))
        .startsWith(
            "LIMITER CONFIGURATION FAILED: 1 problem in @Limited: (1) @Limited(\"conformance-limited\") on "
                + LimitedGreeter.class.getName()
                + ".limited(): policy 'conformance-limited' has"
                + " limiter.policy.conformance-limited.key=resolver:nobody, but no key resolver named"
                + " 'nobody'");
  }

  /** Issue 17.5: such a filter used to deploy and let every request pass at once, unshaped. */
  @Test
  void aShapingPolicyOnAFilterWithoutAsyncSupportFailsTheDeploymentNamingBoth() {
    Failure failure = deployExpectingFailure("sync-shaping-filter", "shaped/x");

    assertThat(failure.all())
        .contains(
            "RateLimitFilter 'sync-limiter' is not async-supported, but its policy 'shape' shapes");
    assertThat(failureLine(failure.log()))
        .startsWith(
            "LIMITER CONFIGURATION FAILED: 1 problem in RateLimitFilter 'sync-limiter': (1)");
  }

  /** A line of the log where someone logged the failure line, from its prefix on. */
  private static final Pattern FAILURE_LINE =
      Pattern.compile("(?m)^(.*?)(" + Pattern.quote(StartLog.FAILED) + ".*)$");

  /**
   * The one line the limiter logged SEVERE for a failed deployment, from its prefix on; checked to
   * come before every exception that the server logs quoting it.
   */
  private static String failureLine(String log) {
    List<String> own = new ArrayList<>();
    int firstOwn = -1;
    int firstQuoted = -1;
    Matcher line = FAILURE_LINE.matcher(log);
    while (line.find()) {
      String before = line.group(1);
      if (before.contains("io.github.limiter.") && !before.contains("Exception")) {
        assertThat(before)
            .as("the level of: %s", line.group())
            .containsAnyOf("SEVERE", "levelValue: 1000", "ERROR");
        own.add(line.group(2));
        firstOwn = firstOwn < 0 ? line.start() : firstOwn;
      } else if (firstQuoted < 0) {
        firstQuoted = line.start();
      }
    }
    assertThat(own).as("the limiter's own failure lines").hasSize(1);
    if (firstQuoted >= 0) {
      assertThat(firstOwn).as("the line comes before the exceptions").isLessThan(firstQuoted);
    }
    return own.get(0);
  }

  /** What the deploy threw (if it did), and what the server logged meanwhile. */
  private record Failure(String thrown, String log) {
    String all() {
      return thrown + log;
    }
  }

  /**
   * Deploys {@code name}, checks that its {@code path} is not served, undeploys it, and returns
   * what failed.
   */
  private Failure deployExpectingFailure(String name, String path) {
    long mark = ServerLog.mark();
    String thrown = "";
    try {
      deployer.deploy(name);
    } catch (Exception e) {
      // WildFly's DeploymentException is checked, and thrown through Deployer all the same.
      thrown = e + "\n";
    }
    try {
      int status =
          Http.get(URI.create(Settings.required("it.http.base") + name + "/" + path)).statusCode();
      assertThat(status)
          .as(
              "GET /%s/%s: the deployment should have failed, so nothing should be served there"
                  + " (a 200 means the application runs, without its rate limits)",
              name, path)
          .isEqualTo(404);
      if (Settings.isPayara()) {
        // What docs/operations.md tells Payara Micro users to watch: it stays up, its health down
        HttpResponse<String> live =
            Http.get(URI.create(Settings.required("it.http.base") + "health/live"));
        assertThat(live.statusCode()).as("/health/live after a failed deployment").isEqualTo(503);
        assertThat(live.body()).contains("\"DOWN\"").contains("No Application deployed");
      }
      return new Failure(thrown, ServerLog.since(mark));
    } finally {
      undeployQuietly(name);
    }
  }

  private void undeployQuietly(String name) {
    try {
      deployer.undeploy(name);
    } catch (Exception e) {
      // WildFly already removed the failed deployment; Payara's JVM is stopped either way.
      System.out.println("undeploy " + name + ": " + e);
    }
  }
}
