package io.github.limiter.it.harness;

import static io.github.limiter.it.harness.RateLimitAssertions.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * One budget per key, whichever adapter counts it: the test WARs' policy {@code budget} (5 an hour
 * per X-Client) is charged by the filter's route {@code rest/items/routed} and by the
 * {@code @Limited} method at {@code rest/items/budget}. However five calls are split between the
 * two, the sixth is refused through either.
 */
public final class OneBudget {

  /**
   * How many of the five admitted calls go through the filter's route; the others through @Limited.
   */
  private static final List<Integer> THROUGH_THE_ROUTE = List.of(0, 2, 3, 5);

  private static final String ROUTED = "rest/items/routed";
  private static final String LIMITED = "rest/items/budget";

  private OneBudget() {}

  /** {@code routed} calls through the route and {@code limited} through @Limited, taking turns. */
  private static List<String> interleaved(int routed, int limited) {
    List<String> calls = new ArrayList<>();
    for (int i = 0; i < Math.max(routed, limited); i++) {
      if (i < routed) {
        calls.add(ROUTED);
      }
      if (i < limited) {
        calls.add(LIMITED);
      }
    }
    return calls;
  }

  /**
   * Runs every split against the application at {@code base}, with keys that start with {@code
   * client}.
   */
  public static void refusesTheSixthCallWhicheverWayTheCallsAreSplit(URI base, String client) {
    for (int routed : THROUGH_THE_ROUTE) {
      for (String sixth : List.of(ROUTED, LIMITED)) {
        String key = client + "-" + routed + "-" + (sixth.equals(ROUTED) ? "route" : "limited");
        List<String> calls = interleaved(routed, 5 - routed);
        for (int i = 0; i < calls.size(); i++) {
          assertThat(Http.get(base.resolve(calls.get(i)), "X-Client", key).statusCode())
              .as("call %d of key %s through %s", i + 1, key, calls.get(i))
              .isEqualTo(200);
        }
        assertRejected(Http.get(base.resolve(sixth), "X-Client", key), "budget", 3600);
      }
    }
  }
}
