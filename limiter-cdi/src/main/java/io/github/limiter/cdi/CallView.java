package io.github.limiter.cdi;

import io.github.limiter.RequestView;
import jakarta.interceptor.InvocationContext;
import java.util.Enumeration;

/**
 * An intercepted call as the admission step reads it: its web parts are those of the HTTP request
 * the call is made in, if any, and outside one it has none.
 */
class CallView implements RequestView {

  private final InvocationContext call;

  /** The HTTP request the call is made in; null outside one. */
  private final RequestView web;

  /** A call made while serving {@code web}; outside an HTTP request if it is null. */
  CallView(InvocationContext call, RequestView web) {
    this.call = call;
    this.web = web;
  }

  @Override
  public String remoteAddress() {
    return web == null ? null : web.remoteAddress();
  }

  @Override
  public String header(String name) {
    return web == null ? null : web.header(name);
  }

  @Override
  public Enumeration<String> headers(String name) {
    return web == null ? null : web.headers(name);
  }

  @Override
  public String principal() {
    return web == null ? null : web.principal();
  }

  @Override
  public boolean isUserInRole(String role) {
    return web != null && web.isUserInRole(role);
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    if (type.isInstance(call)) {
      return type.cast(call);
    }
    return web == null ? null : web.unwrap(type);
  }
}
