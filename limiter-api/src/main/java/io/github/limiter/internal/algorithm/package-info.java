/**
 * The five algorithms as pure next-state functions over {@code long} state and a time in
 * nanoseconds, for store implementations. Applications use {@link io.github.limiter.Limiter}.
 */
package io.github.limiter.internal.algorithm;
