package io.github.limiter.microprofile;

import io.github.limiter.RequestView;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Enumeration;

/**
 * A servlet request as the admission step reads it: the one view that the filter and a
 * {@code @Limited} call made while serving a request share. It lives here because both adapters
 * depend on this module, and neither on the other; it is loaded only where the servlet API is.
 *
 * @param request the request, which {@link #unwrap} hands out
 */
public record ServletRequestView(HttpServletRequest request) implements RequestView {

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
