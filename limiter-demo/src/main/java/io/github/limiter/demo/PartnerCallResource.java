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
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/**
 * {@code GET /api/cdi/partner-call?key=gold|basic}: calls the partner's API ({@code
 * demo.partner.url}, else this node's own stand-in, {@link PartnerResource}) with that key, under
 * outbound policy {@code partner}. The answer says what happened: the partner's quote (200), the
 * partner's refusal (its 429), or the outbound policy's hold (503 with the Retry-After it carries).
 */
@Path("partner-call")
public class PartnerCallResource {

  private static final Map<URI, PartnerApi> CLIENTS = new ConcurrentHashMap<>();

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
      throw e;
    }
  }

  /** A client per partner address, built once: a client is thread-safe, and costly to build. */
  private static PartnerApi client(URI partnerUrl) {
    return RestClientBuilder.newBuilder()
        .baseUri(partnerUrl)
        .property(OutboundFilter.POLICY_PROPERTY, "partner")
        .build(PartnerApi.class);
  }

  private URI partnerUrl() {
    return ConfigProvider.getConfig()
        .getOptionalValue("demo.partner.url", String.class)
        .map(URI::create)
        .orElseGet(() -> uri.getBaseUriBuilder().path("partner").build());
  }
}
