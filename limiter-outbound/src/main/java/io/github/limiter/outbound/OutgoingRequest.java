package io.github.limiter.outbound;

import io.github.limiter.RequestView;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.function.Function;

/**
 * An outgoing call as a {@link RequestView}, for a {@code KeyResolver} named by {@code
 * credential=resolver:NAME}: its header fields, and the client's own request object to unwrap.
 */
final class OutgoingRequest implements RequestView {

  private final Function<String, List<String>> headers;
  private final Object request;

  OutgoingRequest(Function<String, List<String>> headers, Object request) {
    this.headers = headers;
    this.request = request;
  }

  /** None: the call serves no incoming request. */
  @Override
  public String remoteAddress() {
    return null;
  }

  @Override
  public String header(String name) {
    List<String> values = headers.apply(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  @Override
  public Enumeration<String> headers(String name) {
    List<String> values = headers.apply(name);
    return Collections.enumeration(values == null ? List.of() : values);
  }

  @Override
  public String principal() {
    return null;
  }

  @Override
  public <T> T unwrap(Class<T> type) {
    return type.isInstance(request) ? type.cast(request) : null;
  }
}
