package io.github.limiter.servlet;

import io.github.limiter.RequestView;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Enumeration;

/** The filter's request as the admission step reads it. */
record ServletRequestView(HttpServletRequest request) implements RequestView {

  @Override
  public String remoteAddress() {
    return request.getRemoteAddr();
  }

  @Override
  public String header(String name) {
    return request.getHeader(name);
  }

  @Override
  public Enumeration<String> headers(String name) {
    return request.getHeaders(name);
  }

  @Override
  public String principal() {
    Principal principal = request.getUserPrincipal();
    return principal == null ? null : principal.getName();
  }

  @Override
  public boolean isUserInRole(String role) {
    return request.isUserInRole(role);
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    return type.isInstance(request) ? type.cast(request) : null;
  }
}
