package io.github.limiter.internal.http;

import io.github.limiter.RequestView;
import java.util.Collection;

/**
 * The HTTP request that the current call serves, as an HTTP adapter's filter recorded it, for
 * {@code @Limited} keys where the container offers no request bean of its own (Quarkus REST has no
 * servlet request), and the policies it charged for the request. Implemented by a request-scoped
 * bean, so that both follow the call to whichever thread runs it: Quarkus REST filters a request on
 * the event loop and runs a blocking resource on a worker thread, where the filter's thread scope
 * ({@link ChargedPolicies}) is not seen.
 */
public interface RecordedRequest {

  /** The request recorded for the current request scope; null if none was. */
  RequestView get();

  /**
   * The policies the adapter charged for the current request, which a {@code @Limited} call in it
   * leaves out so that each counts the request once; empty if none.
   */
  Collection<String> charged();
}
