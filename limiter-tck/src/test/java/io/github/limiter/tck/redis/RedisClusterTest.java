package io.github.limiter.tck.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RedisExtension.class)
class RedisClusterTest {

  private static final AtomicReference<RedisCluster> FIRST = new AtomicReference<>();

  @Test
  void sixNodesServeEverySlotWithThreeMastersAndThreeReplicasInSync(RedisCluster cluster) {
    FIRST.compareAndSet(null, cluster);
    assertThat(cluster).isSameAs(FIRST.get());
    assertThat(cluster.nodes()).hasSize(6);
    assertThat(cluster.live()).hasSize(6);
    assertThat(cluster.seedList().split(","))
        .hasSize(6)
        .allSatisfy(seed -> assertThat(seed).startsWith("127.0.0.1:"));
    // Keys with one hash tag share a slot; the slot's master has a replica in sync
    assertThat(cluster.slotOf("{user:1}:a"))
        .isEqualTo(cluster.slotOf("{user:1}:b"))
        .isEqualTo(cluster.slotOf("user:1"));
    for (String key : List.of("a", "b", "c", "{tag}x")) {
      RedisServer master = cluster.masterOf(key);
      assertThat(master.info("replication", "role")).isEqualTo("master");
      List<RedisServer> replicas = cluster.replicasOf(master);
      assertThat(replicas).hasSize(1);
      assertThat(replicas.get(0).info("replication", "master_link_status")).isEqualTo("up");
      assertThat(master.call("SET", key, "v")).isEqualTo("OK");
    }
    long masters =
        cluster.nodes().stream()
            .filter(n -> n.info("replication", "role").equals("master"))
            .count();
    assertThat(masters).isEqualTo(3);
  }

  @Test
  void theExtensionSharesOneClusterPerRun(RedisCluster cluster) {
    FIRST.compareAndSet(null, cluster);
    assertThat(cluster).isSameAs(FIRST.get());
  }
}
