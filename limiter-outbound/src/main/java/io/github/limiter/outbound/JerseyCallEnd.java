package io.github.limiter.outbound;

import jakarta.annotation.Priority;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.client.spi.PostInvocationInterceptor;
import org.glassfish.jersey.internal.spi.ForcedAutoDiscoverable;

/**
 * Where the Jakarta REST client is Jersey's (Payara, GlassFish, Helidon, and the MicroProfile Rest
 * Client they build on it), gives back the permit of a call that failed without an answer: a
 * refused connection, a timeout, a cancelled call. No response filter runs then, so {@link
 * OutboundFilter} cannot; Jersey's post-invocation interceptor runs on every end of a call.
 *
 * <p>Jersey finds it by itself (a forced auto-discoverable, in {@code META-INF/services}), on every
 * client of the application; it does nothing to a call that {@link OutboundFilter} did not limit.
 * Nothing to register: it is public only for Jersey to create it.
 */
@ConstrainedTo(RuntimeType.CLIENT)
@Priority(Priorities.USER - 100)
public final class JerseyCallEnd implements ForcedAutoDiscoverable {

  @Override
  public void configure(FeatureContext context) {
    if (context.getConfiguration().getRuntimeType() == RuntimeType.CLIENT
        && !context.getConfiguration().isRegistered(Interceptor.class)) {
      context.register(Interceptor.class);
    }
  }

  /** Ends the call that no response filter ended. */
  @Priority(Priorities.USER - 100)
  public static final class Interceptor implements PostInvocationInterceptor {

    @Override
    public void afterRequest(ClientRequestContext request, ClientResponseContext response) {
      OutboundFilter.abandon(request); // nothing left to end, unless a filter failed to end it
    }

    @Override
    public void onException(ClientRequestContext request, ExceptionContext exception) {
      OutboundFilter.abandon(request);
    }
  }
}
