package io.github.limiter.demo;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The JAX-RS resources live under {@code /api/cdi}. */
@ApplicationPath("/api/cdi")
public class DemoApplication extends Application {}
