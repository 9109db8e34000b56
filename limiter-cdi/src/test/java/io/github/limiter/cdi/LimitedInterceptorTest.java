package io.github.limiter.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.limiter.ActualCost;
import io.github.limiter.Decision;
import io.github.limiter.KeyResolver;
import io.github.limiter.RequestView;
import io.github.limiter.internal.admission.RequestFrame;
import io.github.limiter.internal.http.ChargedPolicies;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.jboss.weld.junit5.EnableWeld;
import org.jboss.weld.junit5.WeldInitiator;
import org.jboss.weld.junit5.WeldSetup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@EnableWeld
class LimitedInterceptorTest {

  @BeforeAll
  static void configure() {
    TestConfig.use(
        TestConfig.of(
            "limiter.policy.api.algorithm", "fixed-window",
            "limiter.policy.api.limits", "3/m",
            "limiter.policy.api.key", "constant",
            "limiter.policy.login.algorithm", "fixed-window",
            "limiter.policy.login.limits", "1/m",
            "limiter.policy.login.key", "constant",
            "limiter.policy.wide.algorithm", "fixed-window",
            "limiter.policy.wide.limits", "10/m",
            "limiter.policy.wide.key", "constant",
            "limiter.policy.narrow.algorithm", "token-bucket",
            "limiter.policy.narrow.limits", "1/m",
            "limiter.policy.narrow.key", "constant",
            "limiter.policy.user.algorithm", "sliding-window-log",
            "limiter.policy.user.limits", "2/m",
            "limiter.policy.tenant.algorithm", "fixed-window",
            "limiter.policy.tenant.limits", "1/m",
            "limiter.policy.tenant.key", "resolver:tenant",
            "limiter.policy.costly.algorithm", "fixed-window",
            "limiter.policy.costly.limits", "5/m",
            "limiter.policy.costly.key", "constant",
            "limiter.policy.costly.permits", "2",
            "limiter.policy.tiered.algorithm", "fixed-window",
            "limiter.policy.tiered.limits", "1/m",
            "limiter.policy.tiered.plan.pro.limits", "3/m",
            "limiter.policy.tiered.plan-source", "resolver:tenant",
            "limiter.policy.signin.algorithm", "fixed-window",
            "limiter.policy.signin.limits", "2/m",
            "limiter.policy.signin.key", "constant",
            "limiter.policy.tokens.algorithm", "fixed-window",
            "limiter.policy.tokens.limits", "10/m",
            "limiter.policy.tokens.key", "constant",
            "limiter.policy.tokens.max-cost", "6",
            "limiter.policy.strict.algorithm", "fixed-window",
            "limiter.policy.strict.limits", "5/m",
            "limiter.policy.strict.on-missing-key", "reject",
            "limiter.policy.fails.algorithm", "fixed-window",
            "limiter.policy.fails.limits", "5/m",
            "limiter.policy.fails.key", "resolver:failing",
            "limiter.policy.shaped.algorithm", "leaky-bucket",
            "limiter.policy.shaped.limits", "1/m burst=5",
            "limiter.policy.shaped.key", "constant",
            "limiter.policy.shaped.max-delay", "20ms",
            "limiter.policy.unshaped.algorithm", "leaky-bucket",
            "limiter.policy.unshaped.limits", "1/m burst=5",
            "limiter.policy.unshaped.key", "constant",
            "limiter.policy.unshaped.max-delay", "10s",
            "limiter.policy.unshaped.nodelay", "true",
            "limiter.policy.export.algorithm", "concurrency",
            "limiter.policy.export.limits", "2",
            "limiter.policy.export.retry-after", "2s",
            "limiter.policy.pool.algorithm", "concurrency",
            "limiter.policy.pool.limits", "4",
            "limiter.policy.pool.key", "constant",
            "limiter.policy.pool.critical-share", "0.25",
            "limiter.policy.found.algorithm", "concurrency",
            "limiter.policy.found.limits", "adaptive",
            "limiter.policy.found.critical-share", "0"));
  }

  @AfterAll
  static void release() {
    TestConfig.clear();
  }

  @WeldSetup
  WeldInitiator weld =
      WeldInitiator.from(
              WeldInitiator.createWeld()
                  .beanClasses(
                      TestStore.class,
                      Orders.class,
                      Accounts.class,
                      Tenants.class,
                      TenantKey.class,
                      FailingKey.class,
                      Base.class,
                      First.class,
                      Second.class,
                      RecordedPauses.class)
                  .addBuildCompatibleExtensions(LimitedBuildExtension.class))
          .build();

  @Inject Orders orders;

  @Inject Accounts accounts;

  @Inject Tenants tenants;

  @Inject First first;

  @Inject Second second;

  @Test
  void classLevelPolicyAppliesToEveryMethod() {
    // Given 'api' admits 3 a minute, on the class
    assertThat(orders.place()).isEqualTo("placed");
    assertThat(orders.cancel()).isEqualTo("cancelled");
    assertThat(orders.place()).isEqualTo("placed");
    // Then the fourth call of either method is rejected
    assertThatThrownBy(orders::cancel)
        .isInstanceOf(RateLimitExceededException.class)
        .hasMessage("Rate limit of policy 'api' exceeded; retry after 60 s");
  }

  @Test
  void methodAnnotationWinsOverTheClass() {
    // Given login() says 'login' (1 a minute) in a class that says 'api'
    orders.login();
    RateLimitExceededException e =
        catchThrowableOfType(RateLimitExceededException.class, orders::login);
    assertThat(e.policyName()).isEqualTo("login");
    // and 'api' was never charged by login()
    orders.place();
    orders.place();
    orders.place();
  }

  @Test
  void exceptionCarriesTheDecisionAndNoStackTrace() {
    orders.login();
    TestStore.CLOCK.advance(Duration.ofSeconds(20));

    RateLimitExceededException e =
        catchThrowableOfType(RateLimitExceededException.class, orders::login);

    assertThat(e.getStackTrace()).isEmpty();
    assertThat(e.policy().name()).isEqualTo("login");
    assertThat(e.decision().outcome()).isEqualTo(Decision.Outcome.LIMITED);
    assertThat(e.remaining()).isZero();
    assertThat(e.retryAfter()).contains(Duration.ofSeconds(40));
    assertThat(e.response().status()).isEqualTo(429);
    assertThat(e.response().header("Retry-After")).isEqualTo("40");
    assertThat(e.response().header("Cache-Control")).isEqualTo("no-store");
    assertThat(e.response().header("RateLimit")).isEqualTo("\"login\";r=0;t=40");
    assertThat(e.response().contentType()).isEqualTo("application/problem+json");
    assertThat(e.response().body()).contains("\"policies\":[\"login\"]");
    TestStore.CLOCK.advance(Duration.ofSeconds(40));
    orders.login();
  }

  @Test
  void severalPoliciesAreAllOrNothing() {
    // Given both() needs 'wide' (10 a minute) and 'narrow' (1 a minute)
    accounts.both();
    // When 'narrow' rejects the second call
    assertThatThrownBy(accounts::both)
        .isInstanceOf(RateLimitExceededException.class)
        .satisfies(
            e -> assertThat(((RateLimitExceededException) e).policyName()).isEqualTo("narrow"));
    // Then 'wide' was given back its permit: 9 more calls under it pass, not 8
    for (int i = 0; i < 9; i++) {
      accounts.wideOnly();
    }
    assertThatThrownBy(accounts::wideOnly).isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void aFailingResolverChargesNothing() {
    // Given 'wide' is charged before the resolver of 'fails' throws
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(accounts::wideThenFailing)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("no tenant");
    }
    // Then 'wide' got its permits back: all 10 are there
    for (int i = 0; i < 10; i++) {
      accounts.wideOnly();
    }
    assertThatThrownBy(accounts::wideOnly).isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void parameterByNameIsTheKey() {
    assertThat(accounts.byName("alice", 1)).isEqualTo("alice");
    accounts.byName("alice", 2);
    assertThatThrownBy(() -> accounts.byName("alice", 3))
        .isInstanceOf(RateLimitExceededException.class);
    // another user has a bucket of its own
    assertThat(accounts.byName("bob", 1)).isEqualTo("bob");
  }

  @Test
  void parameterByIndexIsTheKeyAndSharesThePolicysBuckets() {
    accounts.byIndex(1, "carol");
    accounts.byName("carol", 2);
    assertThatThrownBy(() -> accounts.byIndex(3, "carol"))
        .isInstanceOf(RateLimitExceededException.class);
    accounts.byIndex(1, "dave");
  }

  @Test
  void missingParameterKeyFallsBackToOneSharedKeyOutsideAWebRequest() {
    // 'user' has on-missing-key=remote-address (the default); no web request: one shared key
    accounts.byName(null, 1);
    accounts.byName(null, 2);
    assertThatThrownBy(() -> accounts.byName(null, 3))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void missingKeyIsRejectedWhenThePolicySaysSo() {
    RateLimitExceededException e =
        catchThrowableOfType(RateLimitExceededException.class, () -> accounts.strict(null));
    assertThat(e.policyName()).isEqualTo("strict");
    assertThat(e.decision().outcome()).isEqualTo(Decision.Outcome.MISSING_KEY);
    assertThat(e.retryAfter()).isEmpty(); // it never passes without a key
    assertThat(e.getMessage()).contains("has no key, or no plan it knows, under policy 'strict'");
    assertThat(e.response().status()).isEqualTo(429);
    assertThat(e.response().header("Retry-After")).isNull();
    assertThat(e.response().body()).contains("urn:limiter:problem:missing-key");
    assertThat(accounts.strict("erin")).isEqualTo("erin");
  }

  @Test
  void resolverBeansFindTheKey() {
    // policy 'tenant' is keyed by resolver:tenant (configured), and tenantOverride() by key =
    // "resolver:tenant"
    TenantKey.current = "t1";
    tenants.work();
    assertThatThrownBy(tenants::work).isInstanceOf(RateLimitExceededException.class);
    TenantKey.current = "t2";
    tenants.work();
    TenantKey.current = "t3";
    tenants.overridden();
    assertThatThrownBy(tenants::overridden).isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void permitsComeFromTheConfigOrTheAnnotation() {
    // 'costly' admits 5 a minute and charges 2 a call as configured: 2 calls pass, the third does
    // not
    accounts.costly();
    accounts.costly();
    RateLimitExceededException e =
        catchThrowableOfType(RateLimitExceededException.class, accounts::costly);
    assertThat(e.remaining()).isEqualTo(0);
    // a call that costs 6 (permits = 6) can never pass: no retry-after
    RateLimitExceededException never =
        catchThrowableOfType(RateLimitExceededException.class, accounts::tooCostly);
    assertThat(never.decision().outcome()).isEqualTo(Decision.Outcome.EXCEEDS_CAPACITY);
    assertThat(never.retryAfter()).isEmpty();
    assertThat(never.response().header("Retry-After")).isNull();
  }

  @Test
  void aPlanFromAResolverGivesItsLimits() {
    // 'tiered' admits 1 a minute, 3 on plan pro; the resolver 'tenant' answers the plan
    TenantKey.current = "pro";
    try {
      for (int i = 0; i < 3; i++) {
        tenants.tiered("p");
      }
      RateLimitExceededException e =
          catchThrowableOfType(RateLimitExceededException.class, () -> tenants.tiered("p"));
      assertThat(e.policy().name()).isEqualTo("tiered.plan.pro");
      assertThat(e.response().header("RateLimit-Policy")).startsWith("\"tiered.plan.pro\";q=3");
      // no plan: the policy's own limits
      TenantKey.current = null;
      tenants.tiered("f");
      assertThatThrownBy(() -> tenants.tiered("f")).isInstanceOf(RateLimitExceededException.class);
    } finally {
      TenantKey.current = null;
    }
  }

  @Test
  void onlyCallsThatThrowACountOnExceptionCount() {
    // 'signin' admits 2 a minute, counting only failed sign-ins: successes never lock anyone out
    for (int i = 0; i < 10; i++) {
      accounts.signIn(true);
    }
    assertThatThrownBy(() -> accounts.signIn(false)).isInstanceOf(SecurityException.class);
    assertThatThrownBy(() -> accounts.signIn(false)).isInstanceOf(SecurityException.class);
    // two failures spent the quota: now even the right password is refused
    assertThatThrownBy(() -> accounts.signIn(true)).isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void aCallCostsWhatItsParameterAsksForUpToMaxCost() {
    // 'tokens' admits 10 a minute, at most 6 a call: 4, then 99 (charged 6), spend it all
    accounts.complete("hello", 4);
    accounts.completeByIndex("hello", 99L);
    RateLimitExceededException e =
        catchThrowableOfType(RateLimitExceededException.class, () -> accounts.complete("hi", 1));
    assertThat(e.decision().outcome()).isEqualTo(Decision.Outcome.LIMITED);
  }

  @Test
  void aReportedActualCostSettlesTheDifferenceAfterTheCall() {
    // 'tokens' admits 10 a minute: each call reserves 6 and uses 1, so 5 come back each time
    for (int i = 0; i < 4; i++) {
      accounts.completeUsing("hello", 6, 1);
    }
    // 4 used: a reservation of 6 still fits, then the quota is spent
    accounts.complete("hello", 6);
    assertThatThrownBy(() -> accounts.complete("hello", 1))
        .isInstanceOf(RateLimitExceededException.class);
    // outside a limited call, the handle is inactive and reports go nowhere
    assertThat(ActualCost.current().isActive()).isFalse();
  }

  @Test
  void aCallThatUsedMoreThanItReservedLeavesDebt() {
    // reserves 1, uses 15 of 10: the key owes 5, so the next call waits for the next window
    accounts.completeUsing("hello", 1, 15);
    RateLimitExceededException e =
        catchThrowableOfType(RateLimitExceededException.class, () -> accounts.complete("hi", 1));
    assertThat(e.decision().outcome()).isEqualTo(Decision.Outcome.LIMITED);
    assertThat(e.decision().retryAfterNanos()).isGreaterThan(0);
  }

  @Test
  void aMissingOrNonPositiveCostCostsThePermits() {
    // a null, zero or negative parameter costs the permits (1): ten such calls fill 'tokens'
    for (int i = 0; i < 5; i++) {
      accounts.completeByIndex("hello", null);
      accounts.complete("hello", i % 2 == 0 ? 0 : -7);
    }
    assertThatThrownBy(() -> accounts.complete("hello", 1))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void policiesTheFilterChargedAreSkipped() {
    // Given the servlet filter already charged 'api' for this request
    try (ChargedPolicies.Scope scope = ChargedPolicies.open(List.of("api"))) {
      for (int i = 0; i < 10; i++) {
        orders.place();
      }
    }
    // Then 'api' was counted by the filter only; after the request the interceptor charges again
    orders.place();
    orders.place();
    orders.place();
    assertThatThrownBy(orders::place).isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void skippingOnePolicyStillChargesTheOthers() {
    try (ChargedPolicies.Scope scope = ChargedPolicies.open(List.of("wide"))) {
      accounts.both();
      assertThatThrownBy(accounts::both)
          .isInstanceOf(RateLimitExceededException.class)
          .satisfies(
              e -> assertThat(((RateLimitExceededException) e).policyName()).isEqualTo("narrow"));
    }
  }

  @Test
  void inheritedMethodFollowsEachSubclassesAnnotation() {
    // Base.hello() is inherited by First (@Limited("api")) and Second (@Limited("login"))
    second.hello();
    assertThatThrownBy(second::hello)
        .isInstanceOf(RateLimitExceededException.class)
        .satisfies(
            e -> assertThat(((RateLimitExceededException) e).policyName()).isEqualTo("login"));
    first.hello();
    first.hello();
    first.hello();
    assertThatThrownBy(first::hello)
        .isInstanceOf(RateLimitExceededException.class)
        .satisfies(e -> assertThat(((RateLimitExceededException) e).policyName()).isEqualTo("api"));
  }

  @Test
  void admittedCallsLeaveTheirHeadersForAnHttpAdapter() {
    List<String> headers = new ArrayList<>();
    try (RequestFrame.Enclosing scope = RequestFrame.openEnclosing()) {
      accounts.both();
      scope.headers((name, value) -> headers.add(name + ": " + value));
    }
    // the tightest admission: 'narrow' has nothing left
    assertThat(headers)
        .containsExactly("RateLimit-Policy: \"narrow\";q=1;w=60", "RateLimit: \"narrow\";r=0;t=60");
    // and nothing is collected without a scope
    try (RequestFrame.Enclosing scope = RequestFrame.openEnclosing()) {
      assertThat(scope.isEmpty()).isTrue();
    }
  }

  @Test
  void leakyBucketShapingDelaysAnAdmittedCallUpToMaxDelay() {
    // Given a queue that drains one call a minute: the second call departs in a minute
    RecordedPauses.PAUSES.clear();
    accounts.shaped();
    accounts.shaped();
    // Then it waited, but no longer than max-delay (20ms) allows; the clock of the store never
    // moved
    assertThat(RecordedPauses.PAUSES).containsExactly(Duration.ofMillis(20).toNanos());
  }

  @Test
  void nodelayAdmitsAtOnceButStillCounts() {
    RecordedPauses.PAUSES.clear();
    for (int i = 0; i < 5; i++) {
      accounts.unshaped();
    }
    // without nodelay the later calls would wait up to max-delay (10s) each
    assertThat(RecordedPauses.PAUSES).isEmpty();
    assertThatThrownBy(accounts::unshaped).isInstanceOf(RateLimitExceededException.class);
  }

  /** The shaping waits the interceptor asks for, instead of sleeping them. */
  @ApplicationScoped
  @Test
  void aConcurrencyPermitIsHeldWhileTheCallRunsAndGivenBackHoweverItEnds() {
    // Given at most 2 exports in flight per customer: a call nested 2 deep is within the limit
    assertThat(accounts.export("acme", () -> accounts.export("acme", () -> "inner")))
        .isEqualTo("inner");

    // When a third runs inside two in flight, it is refused with the configured retry-after
    RateLimitExceededException refused =
        catchThrowableOfType(
            RateLimitExceededException.class,
            () ->
                accounts.export(
                    "acme",
                    () -> accounts.export("acme", () -> accounts.export("acme", () -> ""))));
    assertThat(refused.decision().retryAfter()).hasValue(Duration.ofSeconds(2));

    // When calls end by throwing, again and again
    for (int i = 0; i < 5; i++) {
      assertThatThrownBy(
              () ->
                  accounts.export(
                      "acme",
                      () -> {
                        throw new IllegalStateException("the export failed");
                      }))
          .isInstanceOf(IllegalStateException.class);
    }

    // Then every permit came back, and no more than that: 2 deep pass, 3 deep do not
    assertThat(accounts.export("acme", () -> accounts.export("acme", () -> "again")))
        .isEqualTo("again");
    assertThatThrownBy(
            () ->
                accounts.export(
                    "acme", () -> accounts.export("acme", () -> accounts.export("acme", () -> ""))))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void aCriticalCallMayTakeTheShareOfTheLimitThatSheddableCallsLeaveFree() {
    // Given 4 in flight, a quarter kept for critical calls: sheddable calls stop at 2
    RateLimitExceededException refused =
        catchThrowableOfType(
            RateLimitExceededException.class,
            () -> accounts.shed(() -> accounts.shed(() -> accounts.shed(() -> ""))));
    assertThat(refused.decision().outcome()).isEqualTo(Decision.Outcome.OVERLOADED);
    assertThat(refused.getMessage()).contains("Overloaded").contains("'pool'");

    // When two sheddable calls are in flight, two critical calls still pass inside them
    assertThat(
            accounts.shed(
                () -> accounts.shed(() -> accounts.vital(() -> accounts.vital(() -> "in")))))
        .isEqualTo("in");
    // And a fifth is over the limit itself
    assertThatThrownBy(
            () ->
                accounts.shed(
                    () ->
                        accounts.shed(
                            () ->
                                accounts.vital(
                                    () -> accounts.vital(() -> accounts.vital(() -> ""))))))
        .isInstanceOf(RateLimitExceededException.class);
  }

  @Test
  void anAdaptiveLimitRefusesACallBeyondItAsAnOverloadAndGetsItsPermitsBack() {
    // Given an adaptive limit, at 3 in flight while it measures its baseline: 3 nested calls pass
    assertThat(accounts.found(() -> accounts.found(() -> accounts.found(() -> "deep"))))
        .isEqualTo("deep");
    // When a fourth runs inside them, it is refused as an overload
    RateLimitExceededException refused =
        catchThrowableOfType(
            RateLimitExceededException.class,
            () ->
                accounts.found(
                    () -> accounts.found(() -> accounts.found(() -> accounts.found(() -> "")))));
    assertThat(refused.decision().outcome()).isEqualTo(Decision.Outcome.OVERLOADED);
    // Then every permit came back: 3 nested pass again
    assertThat(accounts.found(() -> accounts.found(() -> accounts.found(() -> "again"))))
        .isEqualTo("again");
  }

  static class RecordedPauses implements LimitedCalls.ShapingPause {
    static final List<Long> PAUSES = new CopyOnWriteArrayList<>();

    @Override
    public void pause(long nanos) {
      PAUSES.add(nanos);
    }
  }

  @ApplicationScoped
  @Limited("api")
  static class Orders {
    public String place() {
      return "placed";
    }

    public String cancel() {
      return "cancelled";
    }

    @Limited("login")
    public String login() {
      return "in";
    }
  }

  @ApplicationScoped
  static class Accounts {
    @Limited({"wide", "narrow"})
    public void both() {}

    @Limited("wide")
    public void wideOnly() {}

    @Limited({"wide", "fails"})
    public void wideThenFailing() {}

    @Limited(value = "user", key = "param:user")
    public String byName(String user, int attempt) {
      return user;
    }

    @Limited(value = "user", key = "param:1")
    public String byIndex(int attempt, String user) {
      return user;
    }

    @Limited(value = "strict", key = "param:0")
    public String strict(String user) {
      return user;
    }

    @Limited("costly")
    public void costly() {}

    @Limited(value = "costly", permits = 6)
    public void tooCostly() {}

    @Limited(value = "signin", countOn = SecurityException.class)
    public void signIn(boolean good) {
      if (!good) {
        throw new SecurityException("wrong password");
      }
    }

    @Limited(value = "tokens", cost = "param:maxTokens")
    public void complete(String prompt, int maxTokens) {}

    @Limited(value = "tokens", cost = "param:1")
    public void completeByIndex(String prompt, Long maxTokens) {}

    /** Reserves {@code maxTokens}, then reports what the completion really used. */
    @Limited(value = "tokens", cost = "param:1")
    public void completeUsing(String prompt, int maxTokens, int used) {
      ActualCost.current().report(used);
    }

    @Limited("shaped")
    public void shaped() {}

    /** Runs {@code inside} while holding one of the customer's two export permits. */
    @Limited(value = "export", key = "param:0")
    public String export(String customer, Supplier<String> inside) {
      return inside.get();
    }

    @Limited("unshaped")
    public void unshaped() {}

    @Limited("found")
    public String found(Supplier<String> inside) {
      return inside.get();
    }

    @Limited(value = "pool", criticality = "sheddable")
    public String shed(Supplier<String> inside) {
      return inside.get();
    }

    @Limited(value = "pool", criticality = "critical")
    public String vital(Supplier<String> inside) {
      return inside.get();
    }
  }

  @ApplicationScoped
  static class Tenants {
    @Limited("tenant")
    public void work() {}

    @Limited(value = "login", key = "resolver:tenant")
    public void overridden() {}

    @Limited(value = "tiered", key = "param:0")
    public void tiered(String customer) {}
  }

  @ApplicationScoped
  static class TenantKey implements KeyResolver {
    static volatile String current;

    @Override
    public String name() {
      return "tenant";
    }

    @Override
    public String resolve(RequestView call) {
      return current;
    }
  }

  @ApplicationScoped
  static class FailingKey implements KeyResolver {
    @Override
    public String name() {
      return "failing";
    }

    @Override
    public String resolve(RequestView call) {
      throw new IllegalStateException("no tenant");
    }
  }

  static class Base {
    public String hello() {
      return "hello";
    }
  }

  @ApplicationScoped
  @Limited("api")
  static class First extends Base {}

  @ApplicationScoped
  @Limited("login")
  static class Second extends Base {}
}
