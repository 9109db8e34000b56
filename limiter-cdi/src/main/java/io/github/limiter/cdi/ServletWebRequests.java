package io.github.limiter.cdi;

import io.github.limiter.internal.http.ClientAddress;
import io.github.limiter.internal.http.ClientKeys;
import jakarta.enterprise.inject.AmbiguousResolutionException;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Optional;
import java.util.Set;

/**
 * The current request through the {@code HttpServletRequest} bean that Jakarta EE containers
 * provide. It is request-scoped, so one client proxy serves every call; outside an HTTP request
 * the proxy throws, and the call has no web request.
 */
final class ServletWebRequests implements WebRequests {

  private final HttpServletRequest request;
  private final ClientAddress addresses;

  private ServletWebRequests(HttpServletRequest request, ClientAddress addresses) {
    this.request = request;
    this.addresses = addresses;
  }

  static WebRequests create(BeanManager beans, ClientAddress addresses) {
    Set<Bean<?>> candidates = beans.getBeans(HttpServletRequest.class);
    if (candidates.isEmpty()) {
      return NONE;
    }
    Bean<?> bean;
    try {
      bean = beans.resolve(candidates);
    } catch (AmbiguousResolutionException e) {
      return NONE;
    }
    // A bean that is not normal-scoped would pin one request forever.
    if (bean == null || !beans.isNormalScope(bean.getScope())) {
      return NONE;
    }
    HttpServletRequest proxy =
        (HttpServletRequest) beans.getReference(bean, HttpServletRequest.class, beans.createCreationalContext(bean));
    return new ServletWebRequests(proxy, addresses);
  }

  @Override
  public Optional<WebRequest> current() {
    String remote;
    try {
      remote = request.getRemoteAddr();
    } catch (RuntimeException notInAWebRequest) {
      // ContextNotActiveException, or the container's "not in a servlet request"
      return Optional.empty();
    }
    return remote == null ? Optional.empty() : Optional.of(new View(request, remote, addresses));
  }

  private record View(HttpServletRequest request, String remote, ClientAddress addresses) implements WebRequest {

    @Override
    public String clientAddress() {
      return addresses.key(remote, request::getHeaders);
    }

    @Override
    public Optional<String> header(String name) {
      return Optional.ofNullable(ClientKeys.header(request.getHeader(name)));
    }

    @Override
    public Optional<String> principal() {
      Principal principal = request.getUserPrincipal();
      return principal == null ? Optional.empty() : Optional.ofNullable(ClientKeys.principal(principal.getName()));
    }
  }
}
