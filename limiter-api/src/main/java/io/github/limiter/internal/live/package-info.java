/**
 * Live limits: the policies' limits as they change while the application serves requests. {@link
 * io.github.limiter.internal.live.LiveLimits} wires the parts over one store: the policies'
 * versions and their change ({@link io.github.limiter.internal.live.PolicyVersions}), kept alike
 * across nodes through a shared store's board ({@link io.github.limiter.internal.live.BoardSync});
 * the keys' overrides ({@link io.github.limiter.internal.live.KeyOverrides}); the calendars of the
 * policies' quotas ({@link io.github.limiter.internal.live.LiveCalendars}); and the store that the
 * adapters bind their policies through ({@link io.github.limiter.internal.live.LiveStore}). {@link
 * io.github.limiter.internal.live.ConfigRefresh} changes the versions when the configuration does.
 * JDK only, like the rest of the core.
 */
package io.github.limiter.internal.live;
