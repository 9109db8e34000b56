package io.github.limiter;

import java.util.Enumeration;

/**
 * What a {@link KeyResolver} and the configured key sources read of the call being limited: the
 * HTTP request under the servlet filter, and under {@code @Limited} the intercepted call plus the
 * HTTP request it serves, if any. Free of servlet and CDI types; {@link #unwrap} reaches them.
 */
public interface RequestView {

  /**
   * The direct peer's address as the container wrote it, or null when the call serves no HTTP
   * request.
   */
  String remoteAddress();

  /** The first value of header {@code name}, or null. */
  String header(String name);

  /** Every line of header {@code name}; null or empty when absent. */
  Enumeration<String> headers(String name);

  /** The authenticated principal's name, or null. */
  String principal();

  /**
   * Whether the authenticated principal has {@code role}; false without one, or outside an HTTP
   * request.
   */
  default boolean isUserInRole(String role) {
    return false;
  }

  /**
   * The adapter's own object of {@code type}, or null: {@code HttpServletRequest} under the filter;
   * {@code InvocationContext} under {@code @Limited}, and {@code HttpServletRequest} too while the
   * call serves an HTTP request.
   */
  <T> T unwrap(Class<T> type);
}
