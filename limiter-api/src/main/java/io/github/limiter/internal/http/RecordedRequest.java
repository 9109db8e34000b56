package io.github.limiter.internal.http;

import io.github.limiter.RequestView;

/**
 * The HTTP request that the current call serves, as an HTTP adapter's filter recorded it, for
 * {@code @Limited} keys where the container offers no request bean of its own (Quarkus REST has no
 * servlet request). Implemented by a request-scoped bean, so that the request follows the call to
 * whichever thread runs it.
 */
public interface RecordedRequest {

  /** The request recorded for the current request scope; null if none was. */
  RequestView get();
}
