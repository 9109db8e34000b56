/**
 * Observing traffic: what an operator sees of the requests, never what decides them. Each policy's
 * top keys ({@link io.github.limiter.internal.insight.TopKeys}, a Space-Saving sketch of fixed
 * size) and shadow trials of candidate limits ({@link
 * io.github.limiter.internal.insight.ShadowTrials}), both fed by the admission step through {@link
 * io.github.limiter.internal.insight.Insight}. JDK only, like the rest of the core.
 */
package io.github.limiter.internal.insight;
