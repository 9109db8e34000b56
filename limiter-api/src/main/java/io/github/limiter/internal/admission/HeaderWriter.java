package io.github.limiter.internal.admission;

import io.github.limiter.Decision;
import io.github.limiter.Policy;
import java.util.function.BiConsumer;

/**
 * How an adapter writes the {@code RateLimit} headers of one admission, as its renderer is
 * configured: what an inner adapter's frames leave to their enclosing HTTP request.
 */
@FunctionalInterface
public interface HeaderWriter {

  void write(Policy policy, Decision decision, BiConsumer<String, String> header);
}
