package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every kind of mistake fails the deployment with a message that names the place and the bad value;
 * what needs the application's beans (a key resolver, the store) fails its start, with the same
 * message.
 */
class DeploymentProblemsTest {

  private static final Map<String, String> POLICIES =
      TestConfig.of(
          "limiter.policy.api.algorithm", "fixed-window",
          "limiter.policy.api.limits", "10/s",
          "limiter.policy.login.algorithm", "token-bucket",
          "limiter.policy.login.limits", "5/m");

  @AfterEach
  void release() {
    TestConfig.clear();
  }

  @Test
  void unknownPolicy() {
    assertThat(deploymentProblem(POLICIES, UnknownPolicy.class))
        .contains(
            "@Limited(\"apii\") on "
                + UnknownPolicy.class.getName()
                + ".place(): no policy named 'apii'; configured policies are [api, login]; did you"
                + " mean 'api'?");
  }

  @Test
  void unknownPolicyOnTheClassIsReportedOnce() {
    String message = deploymentProblem(POLICIES, UnknownPolicyOnClass.class);
    String expected =
        "@Limited({\"api\", \"nope\"}) on class "
            + UnknownPolicyOnClass.class.getName()
            + ": no policy named 'nope'; configured policies are [api, login]";
    assertThat(message).contains(expected);
    assertThat(message.indexOf(expected)).isEqualTo(message.lastIndexOf(expected));
  }

  @Test
  void noPolicyNamed() {
    assertThat(deploymentProblem(POLICIES, NoPolicy.class))
        .contains(
            "@Limited({}) on "
                + NoPolicy.class.getName()
                + ".place(): names no policy; configured policies are [api, login]");
  }

  @Test
  void unknownParameterName() {
    assertThat(deploymentProblem(POLICIES, BadParameterName.class))
        .contains(
            "@Limited(value = \"api\", key = \"param:usr\") on "
                + BadParameterName.class.getName()
                + ".login(String, int): key: no parameter named 'usr'; parameters are [user, attempt]");
  }

  @Test
  void parameterIndexOutOfRange() {
    assertThat(deploymentProblem(POLICIES, BadParameterIndex.class))
        .contains(
            "@Limited(value = \"api\", key = \"param:2\") on "
                + BadParameterIndex.class.getName()
                + ".login(String, int): key: no parameter at index 2; the method has 2 (indexes 0 to 1)");
  }

  @Test
  void parameterKeyOnTheClassIsCheckedForEachMethod() {
    String message = deploymentProblem(POLICIES, ParameterKeyOnClass.class);
    assertThat(message)
        .contains(
            "@Limited(value = \"api\", key = \"param:0\") on "
                + ParameterKeyOnClass.class.getName()
                + ".none() (declared on the class): key: no parameter at index 0; the method has no parameters");
    assertThat(message).doesNotContain(".one(");
  }

  @Test
  void parameterWhoseTextDoesNotIdentifyTheCaller() {
    assertThat(deploymentProblem(POLICIES, IdentityParameter.class))
        .contains(
            "@Limited(value = \"api\", key = \"param:0\") on "
                + IdentityParameter.class.getName()
                + ".send(char[]): key: parameter 0 (char[]) does not override toString()");
  }

  @Test
  void unknownResolverInTheAnnotation() {
    assertThat(beanProblem(POLICIES, UnknownResolver.class, TenantKey.class))
        .contains(
            "@Limited(value = \"api\", key = \"resolver:tennant\") on "
                + UnknownResolver.class.getName()
                + ".place(): key 'resolver:tennant': no key resolver named 'tennant' (found [tenant]); register a KeyResolver as a CDI bean or in META-INF/services/io.github.limiter.KeyResolver");
  }

  @Test
  void unknownResolverInThePolicysConfiguredKey() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10/s",
            "limiter.policy.api.key", "resolver:nobody");
    assertThat(beanProblem(config, Valid.class))
        .contains(
            "@Limited(\"api\") on "
                + Valid.class.getName()
                + ".place(): policy 'api' has limiter.policy.api.key=resolver:nobody,"
                + " but no key resolver named 'nobody' (found [])");
  }

  @Test
  void malformedKey() {
    assertThat(deploymentProblem(POLICIES, MalformedKey.class))
        .contains(
            "@Limited(value = \"api\", key = \"ip\") on "
                + MalformedKey.class.getName()
                + ".place(): key: expected param:<name>, param:<index>, resolver:<name>, header:<name>, remote-address,"
                + " principal or constant (or leave it out for the policy's configured key), was 'ip'");
  }

  @Test
  void negativePermits() {
    assertThat(deploymentProblem(POLICIES, NegativePermits.class))
        .contains(
            "@Limited(value = \"api\", permits = -1) on "
                + NegativePermits.class.getName()
                + ".place(): permits must be 0 (the policy's configured permits) or more, was -1");
  }

  @Test
  void aCostThatIsNoParameterOrNoNumber() {
    String message = deploymentProblem(POLICIES, BadCosts.class);

    assertThat(message)
        .contains(
            "@Limited(value = \"api\", cost = \"header:X-Cost\") on "
                + BadCosts.class.getName()
                + ".header(): cost: expected param:<name> or param:<index> (or leave it out for the"
                + " policy's configured cost), was 'header:X-Cost'")
        .contains(
            "@Limited(value = \"api\", cost = \"param:prompt\") on "
                + BadCosts.class.getName()
                + ".text(Object): cost: parameter 0 (java.lang.Object) is not a number")
        .contains(
            "@Limited(value = \"api\", cost = \"param:tokens\") on "
                + BadCosts.class.getName()
                + ".tokens(Object): cost: no parameter named 'tokens'; parameters are [prompt]");
  }

  @Test
  void aPolicyThatCountsByStatusCannotBeLimitedByTheInterceptor() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "3/m",
            "limiter.policy.api.count", "status:401");

    assertThat(deploymentProblem(config, Valid.class))
        .contains(
            "@Limited(\"api\") on "
                + Valid.class.getName()
                + ".place(): policy 'api' has limiter.policy.api.count=status:401, a response"
                + " status, which only the servlet filter sees; use @Limited(countOn = ...)");
  }

  @Test
  void aConcurrencyPolicyHasNothingToCountOn() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "concurrency",
            "limiter.policy.api.limits", "2");

    assertThat(deploymentProblem(config, CountsConcurrency.class))
        .contains(
            CountsConcurrency.class.getName()
                + ".export(): countOn: policy 'api' is a concurrency limit, whose permit comes back"
                + " whenever the call ends");
  }

  @Test
  void aCriticalityIsOneOfTheThreeLevelsAndAppliesToConcurrencyLimits() {
    Map<String, String> concurrency =
        TestConfig.of(
            "limiter.policy.api.algorithm", "concurrency",
            "limiter.policy.api.limits", "2");
    assertThat(deploymentProblem(concurrency, UrgentCall.class))
        .contains(
            UrgentCall.class.getName()
                + ".place(): criticality: expected critical, default or sheddable (or leave it out"
                + " for the policy's configured criticality), was 'urgent'");

    Map<String, String> rate =
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10/s");
    assertThat(deploymentProblem(rate, CriticalRate.class))
        .contains("criticality: applies to concurrency limits, and none of [api] is one");
  }

  @Test
  void invalidConfigValue() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10 per sec");
    assertThat(deploymentProblem(config, Valid.class))
        .contains("limiter.policy.api.limits: ")
        .contains("was '10 per sec'");
  }

  /**
   * Issue 17.6: two bad values and a {@code @Limited} typo in one deployment are reported together,
   * not one per deployment; a bean naming the policy whose value is bad is not blamed for it.
   */
  @Test
  void badValuesAndALimitedTypoAreReportedTogether() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10 per sec",
            "limiter.policy.login.algorithm", "token_bucket",
            "limiter.policy.login.limits", "5/m");

    String message = deploymentProblem(config, Valid.class, UnknownPolicy.class);

    assertThat(message)
        .contains("limiter.policy.api.limits: ", "was '10 per sec'")
        .contains("limiter.policy.login.algorithm: ", "'token_bucket'")
        .contains(
            "@Limited(\"apii\") on "
                + UnknownPolicy.class.getName()
                + ".place(): no policy named 'apii'; configured policies are [api, login]; did you"
                + " mean 'api'?")
        .doesNotContain("no policy named 'api'");
  }

  @Test
  void invalidAlgorithm() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "token-bucket-ish",
            "limiter.policy.api.limits", "10/s");
    assertThat(deploymentProblem(config, Valid.class))
        .contains(
            "limiter.policy.api.algorithm: expected fixed-window, sliding-window-counter,"
                + " sliding-window-log, token-bucket, leaky-bucket or concurrency, was"
                + " 'token-bucket-ish'");
  }

  @Test
  void invalidNearLimitFraction() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10/s",
            "limiter.events.near-limit", "10%");
    assertThat(deploymentProblem(config, Valid.class))
        .contains(
            "limiter.events.near-limit: expected a fraction of the quota above 0 and at most 1, such as 0.1, was '10%'");
  }

  @Test
  void invalidTrustedProxy() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10/s",
            "limiter.http.trusted-proxies", "10.0.0.0/8, proxy.example.com");
    assertThat(deploymentProblem(config, Valid.class))
        .contains(
            "limiter.http.trusted-proxies: expected CIDRs such as 10.0.0.0/8, 192.168.1.7 or ::1/128, was 'proxy.example.com'");
  }

  @Test
  void invalidForwardedHeader() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10/s",
            "limiter.http.forwarded-header", "x-real-ip");
    assertThat(deploymentProblem(config, Valid.class))
        .contains(
            "limiter.http.forwarded-header: expected x-forwarded-for or forwarded, was 'x-real-ip'");
  }

  @Test
  void unknownStore() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.store", "redsi",
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10/s");
    assertThat(storeProblem(config))
        .contains("limiter.store: no store named 'redsi' on the class path; stores found: [")
        .contains("memory")
        // limiter-redis is on this module's test class path: the artifact hint is
        // StoreFactoryTest's
        .contains("did you mean 'redis'?");
  }

  @Test
  void misspeltStoreKey() {
    Map<String, String> config =
        TestConfig.of(
            "limiter.memory.max-key", "10",
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "10/s");
    assertThat(storeProblem(config))
        .contains("limiter.memory.max-key: unknown key; store 'memory' reads [")
        .contains("'10'");
  }

  /**
   * Deploys without the TestStore, so that the configured store is the one in use; returns the
   * problem's text.
   */
  private String storeProblem(Map<String, String> config) {
    Throwable failure = deploy(config, false, Valid.class);
    assertThat(failure).isExactlyInstanceOf(beanProblemType());
    return failure.getMessage();
  }

  /**
   * Starts a container with {@code beans}; returns the text of a problem that needs beans (an
   * unknown key resolver, a bad store).
   */
  private String beanProblem(Map<String, String> config, Class<?>... beans) {
    Throwable failure = deploy(config, true, beans);
    assertThat(failure).isExactlyInstanceOf(beanProblemType());
    return failure.getMessage();
  }

  /**
   * What a problem that needs beans fails with here, without the portable extension (as on
   * Quarkus): the start's DeploymentException, thrown as is, not the validation's, which Weld wraps
   * in its own.
   */
  Class<? extends Throwable> beanProblemType() {
    return DeploymentException.class;
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThat(
            deploymentProblem(
                POLICIES, UnknownPolicy.class, BadParameterName.class, BadParameterIndex.class))
        .contains("no policy named 'apii'")
        .contains("no parameter named 'usr'")
        .contains("no parameter at index 2");
  }

  @Test
  void validDeploymentStarts() {
    assertThat(deploy(POLICIES, true, Valid.class, TenantKey.class)).isNull();
  }

  @Test
  void configuredStoreIsCreatedAtDeploymentUsedAndClosedWithTheContainer() {
    Map<String, String> config = new HashMap<>(POLICIES);
    config.put("limiter.store", "recording");
    TestConfig.use(config);
    int created = RecordingStoreFactory.CREATED.get();
    int closed = RecordingStoreFactory.CLOSED.get();
    Weld weld = weld().beanClasses(Valid.class);
    try (WeldContainer container = weld.initialize()) {
      // created once, at deployment, so that a bad store key fails it
      assertThat(RecordingStoreFactory.CREATED.get()).isEqualTo(created + 1);
      Valid valid = container.select(Valid.class).get();
      for (int i = 0; i < 10; i++) {
        valid.place();
      }
      assertThat(catchThrowable(valid::place)).isInstanceOf(RateLimitExceededException.class);
      assertThat(RecordingStoreFactory.CLOSED.get()).isEqualTo(closed);
    }
    assertThat(RecordingStoreFactory.CREATED.get()).isEqualTo(created + 1);
    assertThat(RecordingStoreFactory.CLOSED.get()).isEqualTo(closed + 1);
  }

  @Test
  void theExtensionsAreServicesSoServersLoadThem() {
    assertThat(ServiceLoader.load(BuildCompatibleExtension.class))
        .anyMatch(LimitedBuildExtension.class::isInstance);
    assertThat(ServiceLoader.load(Extension.class)).anyMatch(LimiterExtension.class::isInstance);
    // With discovery on, Weld loads extensions as a server does: through META-INF/services only.
    TestConfig.use(
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "1/s"));
    try (WeldContainer container =
        new Weld().beanClasses(Valid.class, TestStore.class).initialize()) {
      LimiterDeployment deployment = container.select(LimiterDeployment.class).get();
      assertThat(deployment.sites()).extracting(site -> site.method().getName()).contains("place");
      Valid valid = container.select(Valid.class).get();
      valid.place();
      assertThat(catchThrowable(valid::place)).isInstanceOf(RateLimitExceededException.class);
    }
  }

  /**
   * Starts a container with {@code beans} (and the test store), and returns the deployment
   * problem's text.
   */
  private String deploymentProblem(Map<String, String> config, Class<?>... beans) {
    Throwable failure = deploy(config, true, beans);
    assertThat(failure).isInstanceOf(DeploymentException.class);
    return failure.getMessage();
  }

  /** A container with {@link Limited} support and no discovery: the portable extension's here. */
  Weld weld() {
    return new Weld().disableDiscovery().addBuildCompatibleExtensions(LimitedBuildExtension.class);
  }

  private Throwable deploy(Map<String, String> config, boolean testStore, Class<?>... beans) {
    TestConfig.use(config);
    Weld weld = weld().beanClasses(beans);
    if (testStore) {
      weld.addBeanClass(TestStore.class);
    }
    try (WeldContainer container = weld.initialize()) {
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  @ApplicationScoped
  static class BadCosts {
    @Limited(value = "api", cost = "header:X-Cost")
    public void header() {}

    @Limited(value = "api", cost = "param:prompt")
    public void text(Object prompt) {}

    @Limited(value = "api", cost = "param:tokens")
    public void tokens(Object prompt) {}
  }

  @ApplicationScoped
  static class CountsConcurrency {
    @Limited(value = "api", countOn = IllegalStateException.class)
    public void export() {}
  }

  @ApplicationScoped
  static class UrgentCall {
    @Limited(value = "api", criticality = "urgent")
    public void place() {}
  }

  @ApplicationScoped
  static class CriticalRate {
    @Limited(value = "api", criticality = "critical")
    public void place() {}
  }

  static class Valid {
    @Limited("api")
    public void place() {}
  }

  @ApplicationScoped
  static class UnknownPolicy {
    @Limited("apii")
    public void place() {}
  }

  @ApplicationScoped
  @Limited({"api", "nope"})
  static class UnknownPolicyOnClass {
    public void place() {}

    public void cancel() {}
  }

  @ApplicationScoped
  static class NoPolicy {
    @Limited({})
    public void place() {}
  }

  @ApplicationScoped
  static class BadParameterName {
    @Limited(value = "api", key = "param:usr")
    public void login(String user, int attempt) {}
  }

  @ApplicationScoped
  static class BadParameterIndex {
    @Limited(value = "api", key = "param:2")
    public void login(String user, int attempt) {}
  }

  @ApplicationScoped
  @Limited(value = "api", key = "param:0")
  static class ParameterKeyOnClass {
    public void one(String user) {}

    public void none() {}
  }

  @ApplicationScoped
  static class IdentityParameter {
    @Limited(value = "api", key = "param:0")
    public void send(char[] secret) {}
  }

  @ApplicationScoped
  static class UnknownResolver {
    @Limited(value = "api", key = "resolver:tennant")
    public void place() {}
  }

  @ApplicationScoped
  static class MalformedKey {
    @Limited(value = "api", key = "ip")
    public void place() {}
  }

  @ApplicationScoped
  static class NegativePermits {
    @Limited(value = "api", permits = -1)
    public void place() {}
  }

  @ApplicationScoped
  static class TenantKey implements KeyResolver {
    @Override
    public String name() {
      return "tenant";
    }

    @Override
    public String resolve(RequestView call) {
      return "t";
    }
  }
}
