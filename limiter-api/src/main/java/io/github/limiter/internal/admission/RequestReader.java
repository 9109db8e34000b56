package io.github.limiter.internal.admission;

import io.github.limiter.RequestView;

/**
 * Reads one thing a rule needs from one call, as text: its key (in the core's key scheme), its
 * cost, or its plan name; null when the call has none.
 */
@FunctionalInterface
public interface RequestReader {

  String read(RequestView request);
}
