package io.github.limiter.it.app.cdi;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** JAX-RS under /rest; the Limiter's mapper and headers filter are found by provider scanning. */
@ApplicationPath("/rest")
public class RestApplication extends Application {}
