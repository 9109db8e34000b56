package io.github.limiter.demo;

import io.github.limiter.outbound.OutboundFilter;
import io.github.limiter.outbound.OutboundLimitException;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/**
 * {@code GET /api/cdi/partner-call?key=gold|basic}: calls the partner's API ({@code
 * demo.partner.url}, else this node's own stand-in, {@link PartnerResource}) with that key, under
 * outbound policy {@code partner}. The answer says what happened: the partner's quote (200), the
 * partner's refusal (its 429), the outbound policy's hold (503 with the Retry-After it carries), or
 * that the partner could not be reached: 502 when it refused the connection or failed it, 504 when
 * it did not answer within the client's timeouts, each with a problem body.
 */
@Path("partner-call")
public class PartnerCallResource {

  private static final Logger LOG = Logger.getLogger(PartnerCallResource.class.getName());
  private static final Map<URI, PartnerApi> CLIENTS = new ConcurrentHashMap<>();

  /**
   * How long a connection to the partner may take to open, and an answer to come: without them a
   * partner that hangs holds the caller's thread, and its outbound permit, for as long as it hangs.
   */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

  static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

  @Context UriInfo uri;

  @GET
  @Produces(MediaType.TEXT_PLAIN)
  public Response call(@QueryParam("key") @DefaultValue("gold") String key) {
    InvalidParameter.oneOf("key", key, "gold", "basic");
    PartnerApi partner = CLIENTS.computeIfAbsent(partnerUrl(), PartnerCallResource::client);
    try {
      return Response.ok(partner.quote(key)).build();
    } catch (WebApplicationException refused) {
      return Response.status(refused.getResponse().getStatus())
          .entity("the partner refused: " + refused.getResponse().getStatus() + "\n")
          .build();
    } catch (ProcessingException e) {
      if (e.getCause() instanceof OutboundLimitException held) {
        long seconds =
            held.retryAfter().map(d -> Math.max(1, (d.toMillis() + 999) / 1000)).orElse(60L);
        return Response.status(503)
            .header("Retry-After", Long.toString(seconds))
            .entity(held.getMessage() + "\n")
            .build();
      }
      return unreachable(e);
    }
  }

  /**
   * The partner could not be reached: an expected failure, answered as a gateway's (502, or 504 for
   * a timeout) and logged in one line, without a stack trace. Anything but an I/O error is a bug.
   */
  private static Response unreachable(ProcessingException e) {
    IOException io = null; // the innermost names what happened best
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException found) {
        io = found;
      }
    }
    if (io == null) {
      throw e;
    }
    Response.Status status;
    String detail;
    if (io instanceof SocketTimeoutException) {
      status = Response.Status.GATEWAY_TIMEOUT;
      detail =
          "the partner did not answer within "
              + CONNECT_TIMEOUT.toSeconds()
              + " s to connect and "
              + READ_TIMEOUT.toSeconds()
              + " s to answer";
    } else {
      status = Response.Status.BAD_GATEWAY;
      detail =
          io instanceof ConnectException
              ? "the partner refused the connection"
              : "the connection to the partner failed: " + io.getClass().getSimpleName();
    }
    LOG.info("partner-call: " + status.getStatusCode() + ", " + detail + " (" + io + ")");
    return Problem.response(status, detail);
  }

  /** A client per partner address, built once: a client is thread-safe, and costly to build. */
  private static PartnerApi client(URI partnerUrl) {
    return RestClientBuilder.newBuilder()
        .baseUri(partnerUrl)
        .property(OutboundFilter.POLICY_PROPERTY, "partner")
        .connectTimeout(CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .readTimeout(READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .build(PartnerApi.class);
  }

  private URI partnerUrl() {
    return ConfigProvider.getConfig()
        .getOptionalValue("demo.partner.url", String.class)
        .map(URI::create)
        .orElseGet(() -> uri.getBaseUriBuilder().path("partner").build());
  }
}
