/**
 * For store authors: implement {@link io.github.limiter.RateLimitStore} and register a {@link
 * io.github.limiter.spi.StoreFactory}, which reads its settings through a {@link
 * io.github.limiter.spi.ConfigLookup}.
 */
package io.github.limiter.spi;
