package io.github.limiter.demo;

import io.github.limiter.outbound.OutboundFilter;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;

/**
 * The partner's API as a MicroProfile Rest Client: {@link OutboundFilter} limits its calls under
 * outbound policy {@code partner}, and holds them, on every node, when the partner says to wait.
 */
@Path("quote")
@RegisterProvider(OutboundFilter.class)
public interface PartnerApi {

  @GET
  @Produces(MediaType.TEXT_PLAIN)
  String quote(@HeaderParam("X-Partner-Key") String key);
}
