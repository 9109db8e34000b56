/**
 * The service-provider interface for stores: implement {@link io.github.limiter.spi.RateLimitStore}
 * and register a {@link io.github.limiter.spi.StoreFactory}. Stores evaluate the pure functions of
 * {@link io.github.limiter.algorithm}.
 */
package io.github.limiter.spi;
