package io.github.limiter.it.app.conformance;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Jakarta REST under {@code /api}; Limiter's exception mapper is found by provider scanning. */
@ApplicationPath("/api")
public class ConformanceApplication extends Application {}
