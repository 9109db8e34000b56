package io.github.limiter.tck;

import io.github.limiter.LiveVersions;
import io.github.limiter.Peek;
import io.github.limiter.RateLimitStore;
import io.github.limiter.UpstreamBlocks;

/** A store's optional views, which the contracts of those capabilities require it to offer. */
public final class Views {

  private Views() {}

  /** The store's {@link Peek}; fails the test if it offers none. */
  public static Peek peek(RateLimitStore store) {
    return view(store, Peek.class);
  }

  /** The store's {@link LiveVersions}; fails the test if it offers none. */
  public static LiveVersions versions(RateLimitStore store) {
    return view(store, LiveVersions.class);
  }

  /** The store's {@link UpstreamBlocks}; fails the test if it offers none. */
  public static UpstreamBlocks blocks(RateLimitStore store) {
    return view(store, UpstreamBlocks.class);
  }

  private static <T> T view(RateLimitStore store, Class<T> capability) {
    return store
        .view(capability)
        .orElseThrow(
            () -> new AssertionError(store + " offers no " + capability.getSimpleName() + " view"));
  }
}
