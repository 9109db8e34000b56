package io.github.limiter.it.app.jaxrs;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Jakarta REST under /api; the Limiter's RateLimitFeature is found by provider scanning. */
@ApplicationPath("/api")
public class OrdersApplication extends Application {}
