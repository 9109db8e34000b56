package io.github.limiter.jaxrs;

import io.github.limiter.RequestView;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * A Jakarta REST request as the admission step reads it. Jakarta REST has no client address of its
 * own: {@code address} is the container's, or null when it cannot be known (see {@link
 * RouteFilter#remoteAddress}).
 */
record JaxrsRequestView(ContainerRequestContext request, String address) implements RequestView {

  @Override
  public String remoteAddress() {
    return address;
  }

  @Override
  public String header(String name) {
    List<String> values = request.getHeaders().get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  @Override
  public Enumeration<String> headers(String name) {
    List<String> values = request.getHeaders().get(name);
    return values == null ? null : Collections.enumeration(values);
  }

  @Override
  public String principal() {
    SecurityContext security = request.getSecurityContext();
    Principal principal = security == null ? null : security.getUserPrincipal();
    return principal == null ? null : principal.getName();
  }

  @Override
  public boolean isUserInRole(String role) {
    SecurityContext security = request.getSecurityContext();
    return security != null && security.isUserInRole(role);
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    return type.isInstance(request) ? type.cast(request) : null;
  }
}
