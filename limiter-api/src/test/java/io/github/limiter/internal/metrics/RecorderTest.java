package io.github.limiter.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.StoreHealth;
import io.github.limiter.internal.config.MetricsSettings;
import io.github.limiter.internal.metrics.Recorder.Verdict;
import io.github.limiter.memory.InMemoryStore;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The seam the admission step records through: none, one, or several backends. */
class RecorderTest {

  /** A backend that writes down what it was told. */
  static final class Log implements Recorder {
    final List<String> calls = new ArrayList<>();

    @Override
    public void decision(String policy, Verdict outcome, boolean verified) {
      calls.add("decision " + policy + " " + outcome.tag() + " " + verified);
    }

    @Override
    public void nearLimit(String policy) {
      calls.add("near " + policy);
    }

    @Override
    public void shapingDelay(String policy, long nanos) {
      calls.add("shaping " + policy + " " + nanos);
    }

    @Override
    public void storeDuration(String store, long nanos) {
      calls.add("store " + store + " " + nanos);
    }

    @Override
    public void watch(StoreGauges store) {
      calls.add("watch " + store.store());
    }
  }

  @Test
  void noBackendIsTheNoop() {
    assertThat(Recorder.of(List.of())).isSameAs(Recorder.NOOP);
    assertThat(Recorder.of(List.of(Recorder.NOOP, Recorder.NOOP))).isSameAs(Recorder.NOOP);
  }

  @Test
  void oneBackendIsUsedDirectly() {
    Log log = new Log();

    assertThat(Recorder.of(List.of(Recorder.NOOP, log))).isSameAs(log);
  }

  @Test
  void severalBackendsEachGetEveryCall() {
    Log first = new Log();
    Log second = new Log();
    Recorder both = Recorder.of(List.of(first, second));

    both.decision("api", Verdict.DRY_RUN_REJECTED, true);
    both.nearLimit("api");
    both.shapingDelay("api", 5);
    both.storeDuration("redis", 7);
    both.watch(StoreGauges.of("memory", InMemoryStore.create()));

    List<String> expected =
        List.of(
            "decision api dry-run-rejected true",
            "near api",
            "shaping api 5",
            "store redis 7",
            "watch memory");
    assertThat(first.calls).isEqualTo(expected);
    assertThat(second.calls).isEqualTo(expected);
  }

  @Test
  void metricsSwitchedOffLoadNoBackend() {
    MetricsSettings off = new MetricsSettings(false, true, true, true);

    assertThat(RecorderFactory.load(off, getClass().getClassLoader())).isSameAs(Recorder.NOOP);
    // The core alone has no backend on its class path.
    assertThat(RecorderFactory.load(MetricsSettings.DEFAULTS, getClass().getClassLoader()))
        .isSameAs(Recorder.NOOP);
  }

  @Test
  void theBreakerStateIsAGaugeValue() {
    Optional<String> error = Optional.of("refused");
    Optional<Instant> at = Optional.of(Instant.EPOCH);

    assertThat(StoreGauges.circuitState(StoreHealth.healthy())).isEqualTo(StoreGauges.CLOSED);
    assertThat(StoreGauges.circuitState(new StoreHealth(false, "open", error, at)))
        .isEqualTo(StoreGauges.OPEN);
    assertThat(StoreGauges.circuitState(new StoreHealth(false, "half-open", error, at)))
        .isEqualTo(StoreGauges.HALF_OPEN);
  }

  @Test
  void anInMemoryStoreShowsItsKeyCount() {
    StoreGauges gauges = StoreGauges.of("memory", InMemoryStore.create());

    assertThat(gauges.keys()).isPresent();
    assertThat(gauges.keys().orElseThrow().getAsLong()).isZero();
  }

  @Test
  void anInMemoryStoreBehindAProxyShowsItsKeyCount() {
    // Given the store as CDI injects an application-scoped RateLimitStore: a proxy of the interface
    try (InMemoryStore store = InMemoryStore.create()) {
      RateLimitStore proxy =
          (RateLimitStore)
              Proxy.newProxyInstance(
                  RateLimitStore.class.getClassLoader(),
                  new Class<?>[] {RateLimitStore.class},
                  (self, method, args) -> method.invoke(store, args));
      store.decide(Policy.fixedWindow("api", Limit.of(5, Duration.ofHours(1))), "client", 1);

      // Then the gauges still find the in-memory store behind it
      StoreGauges gauges = StoreGauges.of("memory", proxy);
      assertThat(gauges.keys().orElseThrow().getAsLong()).isEqualTo(1);
      assertThat(gauges.evictions()).isPresent();
    }
  }

  @Test
  void anInMemoryStoreShowsItsEvictions() {
    // Given a store of two keys that evicts when full
    try (InMemoryStore store =
        InMemoryStore.builder().maxKeys(2).overflow(InMemoryStore.Overflow.EVICT).build()) {
      StoreGauges gauges = StoreGauges.of("memory", store);
      Policy policy = Policy.fixedWindow("api", Limit.of(5, Duration.ofHours(1)));

      // When five clients come, each key still in its window
      for (int client = 0; client < 5; client++) {
        store.decide(policy, "client-" + client, 1);
      }

      // Then every key beyond the bound took another's place, and the gauge says so
      assertThat(gauges.evictions()).isPresent();
      assertThat(gauges.evictions().orElseThrow().getAsLong()).isEqualTo(3);
      assertThat(gauges.keys().orElseThrow().getAsLong()).isEqualTo(2);
    }
  }
}
