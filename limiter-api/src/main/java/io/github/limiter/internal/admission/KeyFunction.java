package io.github.limiter.internal.admission;

import io.github.limiter.RequestView;

/** Finds one policy's key for one call, in the core's key scheme; null when the call has none. */
@FunctionalInterface
public interface KeyFunction {

  String key(RequestView request);
}
