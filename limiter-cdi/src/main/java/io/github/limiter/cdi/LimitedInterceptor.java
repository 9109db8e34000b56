package io.github.limiter.cdi;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/**
 * Applies {@link Limited}. Enabled for the whole application by its priority, early among library
 * interceptors so that a rejected call costs little.
 */
@Limited({})
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE)
class LimitedInterceptor {

  @Inject LimitedCalls calls;

  @AroundInvoke
  Object limit(InvocationContext call) throws Exception {
    return calls.invoke(call);
  }
}
