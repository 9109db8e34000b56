package io.github.limiter.outbound;

import io.github.limiter.internal.metrics.Recorder.OutboundEvent;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.client.ClientResponseFilter;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The outbound limits of a Jakarta REST client: before a call, waits for its policy's budget and
 * for any block its upstream asked for (up to {@code max-wait}, then goes on or fails with {@link
 * OutboundLimitException}, the cause of the client's {@code ProcessingException}); after it, reads
 * the upstream's {@code Retry-After} and rate-limit fields, so that every node blocks calls to that
 * upstream; and, with {@code retry-attempts}, sends an idempotent call refused with 429 or 503
 * again, with its body only if that can be repeated (not a stream). A call that gets no answer (a
 * refused connection, a timeout, a cancellation) runs no response filter: on Jersey, {@link
 * JerseyCallEnd} ends it; on any other client, {@code max-call-time} does.
 *
 * <p>With MicroProfile Rest Client: {@code @RegisterProvider(OutboundFilter.class)} on the client
 * interface; the call's upstream picks the outbound policy among the application's, {@link
 * Outbound#shared()} ({@code limiter.outbound.NAME.upstreams}), or the request's or the client's
 * property {@value #POLICY_PROPERTY} names it ({@code RestClientBuilder.property}). A plain client
 * registers {@code new OutboundFilter(limiter)} for one policy.
 */
@Priority(Priorities.USER - 100) // before the application's own filters, so they see a real call
public final class OutboundFilter implements ClientRequestFilter, ClientResponseFilter {

  /** A request property naming the outbound policy of the call. */
  public static final String POLICY_PROPERTY = "io.github.limiter.outbound.policy";

  private static final String CALL = OutboundFilter.class.getName() + ".call";
  private static final String SENT = OutboundFilter.class.getName() + ".sent";
  private static final String STARTED = OutboundFilter.class.getName() + ".started";

  private final OutboundLimiter only;
  private final Supplier<Outbound> outbound;

  /**
   * The filter of the application's outbound policies ({@link Outbound#shared()}): for MicroProfile
   * Rest Client's {@code @RegisterProvider}.
   */
  public OutboundFilter() {
    this.only = null;
    this.outbound = Outbound::shared;
  }

  /** The filter of one outbound policy, for every call of the client that registers it. */
  public OutboundFilter(OutboundLimiter limiter) {
    this.only = limiter;
    this.outbound = null;
  }

  /** The filter of the policies of {@code outbound}, picked by upstream or request property. */
  public OutboundFilter(Outbound outbound) {
    this.only = null;
    this.outbound = () -> outbound;
  }

  @Override
  public void filter(ClientRequestContext request) throws IOException {
    OutboundLimiter limiter = limiterOf(request);
    if (limiter == null) {
      return;
    }
    String credential =
        limiter.credential(
            name ->
                request.getStringHeaders().get(name) == null
                    ? headerIgnoringCase(request.getStringHeaders(), name)
                    : request.getStringHeaders().get(name),
            request);
    Object started = request.getProperty(STARTED);
    long maxWait = limiter.config().maxWait().toNanos();
    if (started instanceof Long since) {
      // A retry: it may wait as long as the retries have time left.
      long left = limiter.retries().maxTimeNanos() - (limiter.clock().nanos() - since);
      maxWait = Math.max(maxWait, left);
    } else {
      request.setProperty(STARTED, limiter.clock().nanos());
    }
    request.setProperty(CALL, limiter.begin(request.getUri(), credential, maxWait));
  }

  @Override
  public void filter(ClientRequestContext request, ClientResponseContext response)
      throws IOException {
    OutboundCall call = takeCall(request);
    if (call == null) {
      return;
    }
    long block = call.endNanos(response.getStatus(), response::getHeaderString);
    OutboundLimiter limiter = limiterOf(request);
    if (limiter == null
        || !UpstreamSignals.refused(response.getStatus())
        || !limiter.retries().enabled()
        || !RetryPlan.idempotent(request.getMethod())
        || !repeatable(request.getEntity())) {
      return;
    }
    int sent = request.getProperty(SENT) instanceof Integer n ? n : 1;
    long started = (Long) request.getProperty(STARTED);
    long wait = limiter.retries().next(sent, limiter.clock().nanos() - started, block);
    if (wait == RetryPlan.STOP) {
      return;
    }
    limiter.recorder().outbound(limiter.name(), OutboundEvent.RETRIED);
    try {
      limiter.sleeper().sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted before a retry");
    }
    Response retried = resend(request, sent + 1, started);
    response.setStatus(retried.getStatus());
    response.getHeaders().clear();
    retried.getStringHeaders().forEach((name, values) -> response.getHeaders().put(name, values));
    if (response.hasEntity()) {
      response.getEntityStream().close();
    }
    response.setEntityStream(
        retried.hasEntity()
            ? retried.readEntity(InputStream.class)
            : InputStream.nullInputStream());
  }

  /**
   * Ends the call of {@code request} that got no answer: a refused connection, a timeout, a
   * cancelled or failed invocation. No response filter runs then, and Jakarta REST has no standard
   * hook for it: {@link JerseyCallEnd} calls this where the client is Jersey's, and {@code
   * max-call-time} ends the call on any other.
   */
  static void abandon(ClientRequestContext request) {
    OutboundCall call = takeCall(request);
    if (call != null) {
      call.abandon();
    }
  }

  /** The call of {@code request}, once: whoever takes it ends it. */
  private static OutboundCall takeCall(ClientRequestContext request) {
    if (!(request.getProperty(CALL) instanceof OutboundCall call)) {
      return null;
    }
    request.removeProperty(CALL);
    return call;
  }

  /** Sends the call again through the same client, whose filters see it as attempt {@code sent}. */
  private static Response resend(ClientRequestContext request, int sent, long started) {
    Invocation.Builder again = request.getClient().target(request.getUri()).request();
    request
        .getStringHeaders()
        .forEach((name, values) -> values.forEach(v -> again.header(name, v)));
    for (String name : request.getPropertyNames()) {
      if (!name.equals(CALL)) {
        again.property(name, request.getProperty(name));
      }
    }
    again.property(SENT, sent).property(STARTED, started);
    return request.hasEntity()
        ? again.method(
            request.getMethod(),
            Entity.entity(request.getEntity(), request.getMediaType()),
            Response.class)
        : again.method(request.getMethod(), Response.class);
  }

  /** A body that can be sent twice: none, or an object the client writes anew, not a stream. */
  static boolean repeatable(Object entity) {
    return !(entity instanceof InputStream
        || entity instanceof java.io.Reader
        || entity instanceof jakarta.ws.rs.core.StreamingOutput
        || entity instanceof java.nio.channels.Channel);
  }

  private OutboundLimiter limiterOf(ClientRequestContext request) {
    if (only != null) {
      return only;
    }
    Outbound policies = outbound.get();
    Object property = request.getProperty(POLICY_PROPERTY);
    // else the client's own, as RestClientBuilder.property sets it
    Object named =
        property != null ? property : request.getConfiguration().getProperty(POLICY_PROPERTY);
    if (named != null) {
      return policies
          .policy(named.toString())
          .orElseThrow(
              () ->
                  new IllegalArgumentException(
                      "request property "
                          + POLICY_PROPERTY
                          + ": no outbound policy named '"
                          + named
                          + "' (found "
                          + policies.names()
                          + ")"));
    }
    return policies.forUpstream(request.getUri()).orElse(null);
  }

  private static List<String> headerIgnoringCase(Map<String, List<String>> headers, String name) {
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase(name)) {
        return header.getValue();
      }
    }
    return null;
  }
}
