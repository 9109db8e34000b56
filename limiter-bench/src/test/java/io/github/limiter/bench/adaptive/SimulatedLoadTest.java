package io.github.limiter.bench.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.bench.adaptive.SimulatedLoad.Cycle;
import io.github.limiter.bench.adaptive.SimulatedLoad.Phase;
import io.github.limiter.bench.adaptive.SimulatedLoad.Protection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit against the harness's simulated backend. The model runs on its own clock with
 * seeded draws, so its figures are exact and can be asserted, unlike a load test's.
 */
class SimulatedLoadTest {

  @Test
  void whenADependencySlowsDownTheLimitServesTheSlowerBackendsCapacityWithinFiveSeconds() {
    // Given 16 slots at 2x their capacity, whose service time doubles for 10 s
    List<Phase> phases = SimulatedLoad.slowDependency(Protection.ADAPTIVE);
    Phase before = phases.get(0);
    Phase slow = phases.get(1);
    Phase after = phases.get(2);
    assertThat(before.goodput()).isGreaterThanOrEqualTo(0.95 * before.capacity());
    // Then from 5 s after the change on, the goodput is within 10% of what the slower backend
    // serves, from the third second on every second is, and the limit never fell below the
    // backend's 16 slots by more than a quarter
    assertThat(slow.goodputAfterFive()).isGreaterThanOrEqualTo(0.9 * slow.capacity());
    for (int second = 2; second < slow.firstSeconds().length; second++) {
      assertThat(slow.firstSeconds()[second]).isGreaterThanOrEqualTo(0.9);
    }
    assertThat(slow.lowestLimit()).isGreaterThanOrEqualTo(12);
    // And one probe measured the slower baseline, and one the faster one when it came back
    assertThat(slow.probes()).isEqualTo(1);
    assertThat(after.probes()).isEqualTo(1);
    assertThat(after.goodputAfterFive()).isGreaterThanOrEqualTo(0.95 * after.capacity());
  }

  @Test
  void
      overAFullProbeCycleAtFourTimesTheCapacityItServesAsMuchAsGradient2AndCriticalRequestsAnswer() {
    // Given 16 slots at 4x their capacity, 10% of the requests critical, for five minutes from a
    // cold start
    Cycle adaptive = SimulatedLoad.probeCycle(Protection.ADAPTIVE);
    Cycle gradient2 = SimulatedLoad.probeCycle(Protection.GRADIENT2);
    // Then the cycle held one probe, the start-up's, which cost less than 0.2% of the goodput
    assertThat(adaptive.probes()).isEqualTo(1);
    assertThat(adaptive.probeCost()).isLessThan(0.002);
    // And the goodput is at least Gradient2's
    assertThat(adaptive.goodput()).isGreaterThanOrEqualTo(gradient2.goodput());
    // And 99.5% of the critical requests were answered within the deadline, probes included
    assertThat(adaptive.criticalRequests()).isGreaterThan(40_000);
    assertThat(adaptive.criticalGood()).isGreaterThanOrEqualTo(0.995);
  }
}
