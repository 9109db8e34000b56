package io.github.limiter.cdi;

import io.github.limiter.RequestView;
import jakarta.interceptor.InvocationContext;
import java.util.Enumeration;

/**
 * An intercepted call as the admission step reads it: outside an HTTP request, it has no web parts.
 */
class CallView implements RequestView {

  private final InvocationContext call;

  CallView(InvocationContext call) {
    this.call = call;
  }

  @Override
  public String remoteAddress() {
    return null;
  }

  @Override
  public String header(String name) {
    return null;
  }

  @Override
  public Enumeration<String> headers(String name) {
    return null;
  }

  @Override
  public String principal() {
    return null;
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    return type.isInstance(call) ? type.cast(call) : null;
  }
}
