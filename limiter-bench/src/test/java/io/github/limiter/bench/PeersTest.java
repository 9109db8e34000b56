package io.github.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.bucket4j.Bucket;
import io.github.limiter.Limiter;
import io.github.limiter.bench.Peers.Path;
import io.github.limiter.memory.InMemoryStore;
import org.junit.jupiter.api.Test;

/** The premise of every benchmark: each peer is on the path it is said to measure. No timing. */
class PeersTest {

  @Test
  void on_the_admit_path_every_peer_admits_a_burst() {
    try (Limiter limiter = Limiter.of(InMemoryStore.create())) {
      Bucket bucket4j = Peers.bucket4j(Path.ADMIT);
      var resilience4j = Peers.resilience4j(Path.ADMIT);
      var guava = Peers.guava(Path.ADMIT);
      RawCasGcra raw = Peers.raw(Path.ADMIT);
      for (int i = 0; i < 10_000; i++) {
        assertThat(limiter.decide(Peers.tokenBucket(Path.ADMIT), "k").isAllowed()).isTrue();
        assertThat(limiter.decide(Peers.leakyBucket(Path.ADMIT), "k").isAllowed()).isTrue();
        assertThat(bucket4j.tryConsume(1)).isTrue();
        assertThat(resilience4j.acquirePermission()).isTrue();
        assertThat(guava.tryAcquire()).isTrue();
        assertThat(raw.tryAcquire()).isTrue();
      }
    }
  }

  @Test
  void on_the_reject_path_every_peer_rejects_after_set_up() {
    try (Limiter limiter = Limiter.of(InMemoryStore.create())) {
      Peers.drain(
          "token bucket", () -> limiter.decide(Peers.tokenBucket(Path.REJECT), "k").isAllowed());
      Peers.drain(
          "leaky bucket", () -> limiter.decide(Peers.leakyBucket(Path.REJECT), "k").isAllowed());
      Bucket bucket4j = Peers.bucket4j(Path.REJECT);
      var resilience4j = Peers.resilience4j(Path.REJECT);
      var guava = Peers.guava(Path.REJECT);
      RawCasGcra raw = Peers.raw(Path.REJECT);
      for (int i = 0; i < 1_000; i++) {
        assertThat(limiter.decide(Peers.tokenBucket(Path.REJECT), "k").isAllowed()).isFalse();
        assertThat(limiter.decide(Peers.leakyBucket(Path.REJECT), "k").isAllowed()).isFalse();
        assertThat(bucket4j.tryConsume(1)).isFalse();
        assertThat(resilience4j.acquirePermission()).isFalse();
        assertThat(guava.tryAcquire()).isFalse();
        assertThat(raw.tryAcquire()).isFalse();
      }
    }
  }

  @Test
  void a_peer_on_the_wrong_path_fails_the_run_naming_it() {
    assertThatThrownBy(() -> Peers.expect("guava", Path.REJECT, true))
        .hasMessageContaining("guava")
        .hasMessageContaining("rejected");
    assertThatThrownBy(() -> Peers.path("both")).hasMessageContaining("both");
  }
}
