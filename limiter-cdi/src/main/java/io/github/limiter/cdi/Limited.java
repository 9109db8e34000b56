package io.github.limiter.cdi;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Rate-limits calls of a CDI bean's business methods under one or more configured policies. On a
 * class it applies to every business method; an annotation on a method wins over the class's.
 *
 * <pre>{@code
 * @Limited("api")                                  // key and permits as configured for 'api'
 * public Order place(Order order) { ... }
 *
 * @Limited(value = {"login", "login-global"}, key = "param:user")   // both must admit, or none is charged
 * public Session login(String user, char[] password) { ... }
 *
 * @Limited(value = "llm", cost = "param:maxTokens")  // charged the tokens the call asks for
 * public Completion complete(String prompt, int maxTokens) { ... }
 *
 * @Limited(value = "login", countOn = AuthenticationException.class)  // failed logins only
 * public Session authenticate(String user, char[] password) { ... }
 *
 * @Limited(value = "backend", criticality = "critical")  // refused last under overload
 * public Payment pay(Order order) { ... }
 * }</pre>
 *
 * A rejected call throws {@link RateLimitExceededException}. The policies come from configuration
 * ({@code limiter.policy.<name>.*}); a policy name, parameter or resolver that does not exist fails
 * the deployment.
 */
@InterceptorBinding
@Inherited
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Limited {

  /** The policies; with several, the call must be admitted by all of them, or none is charged. */
  @Nonbinding
  String[] value();

  /**
   * Where the key (the client identity) comes from; empty for each policy's configured {@code
   * limiter.policy.<name>.key}. Otherwise one of:
   *
   * <ul>
   *   <li>{@code param:<name>} or {@code param:<index>}: a method parameter, as {@code
   *       String.valueOf}; names need the {@code -parameters} compiler flag, indexes start at 0
   *   <li>{@code resolver:<name>}: a {@code @Named} {@link io.github.limiter.KeyResolver} bean
   *   <li>{@code remote-address}, {@code header:<name>}, {@code principal}: from the current HTTP
   *       request; outside one, a constant key
   *   <li>{@code constant}: one key for every caller
   * </ul>
   */
  @Nonbinding
  String key() default "";

  /** What one call costs; 0 for each policy's configured {@code limiter.policy.<name>.permits}. */
  @Nonbinding
  long permits() default 0;

  /**
   * Where a call's cost comes from at run time; empty for each policy's configured {@code
   * limiter.policy.<name>.cost}, if any. Otherwise {@code param:<name>} or {@code param:<index>}: a
   * numeric (or numeric text) method parameter. A null, malformed or non-positive value costs
   * {@link #permits()}; a value above the policy's {@code max-cost} costs {@code max-cost}.
   */
  @Nonbinding
  String cost() default "";

  /**
   * Which calls count against the policies: empty for every call (or each policy's configured
   * {@code limiter.policy.<name>.count=all}); otherwise only calls that throw one of these (or a
   * subclass), such as a failed login's {@code AuthenticationException}. Every call is charged when
   * it is admitted, so that concurrent calls can never pass the limit together, and one that does
   * not count gets its charge back when it returns.
   */
  @Nonbinding
  Class<? extends Throwable>[] countOn() default {};

  /**
   * How much a call matters under a concurrency limit: {@code critical}, {@code default} or {@code
   * sheddable}. Under overload sheddable calls are refused first and critical ones last; a share of
   * the limit ({@code limiter.policy.<name>.critical-share}) is kept for critical calls. Empty for
   * each policy's configured {@code limiter.policy.<name>.criticality}. A policy whose criticality
   * comes from a header or a resolver asks it first; this applies when it names none.
   */
  @Nonbinding
  String criticality() default "";
}
