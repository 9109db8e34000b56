package io.github.limiter.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.limiter.ConfigException;
import io.github.limiter.Decision.Outcome;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.memory.InMemoryStore;
import io.github.limiter.spi.ConfigLookup;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** limiter.store=memory is found through ServiceLoader and reads limiter.memory.*. */
class StoreFactoryTest {

  static final ClassLoader LOADER = StoreFactoryTest.class.getClassLoader();

  @Test
  void theMemoryStoreIsFoundByNameWithItsDefaults() {
    RateLimitStore store = Stores.create("memory", ConfigLookup.of(Map.of()), LOADER);

    assertThat(store).isInstanceOf(InMemoryStore.class);
    assertThat(((InMemoryStore) store).maxKeys()).isEqualTo(InMemoryStore.DEFAULT_MAX_KEYS);
  }

  @Test
  void theMemoryStoreReadsItsKeys() {
    InMemoryStore store =
        (InMemoryStore)
            Stores.create(
                "memory",
                ConfigLookup.of(
                    Map.of(
                        "limiter.memory.max-keys",
                        "1",
                        "limiter.memory.overflow",
                        "Reject-New-Keys")),
                LOADER);
    Policy policy = Policy.fixedWindow("p", Limit.of(1, Duration.ofHours(1)));

    store.decide(policy, "a", 1);

    assertThat(store.maxKeys()).isEqualTo(1);
    assertThat(store.decide(policy, "b", 1).outcome()).isEqualTo(Outcome.UNAVAILABLE);
  }

  @ParameterizedTest
  @CsvSource({
    "limiter.memory.max-keys, 0",
    "limiter.memory.max-keys, lots",
    "limiter.memory.max-keys, 3000000000",
    "limiter.memory.overflow, drop"
  })
  void aBadMemoryValueNamesTheKeyAndTheValue(String key, String value) {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () -> Stores.create("memory", ConfigLookup.of(Map.of(key, value)), LOADER));

    assertThat(e.key()).isEqualTo(key);
    assertThat(e.getMessage()).startsWith(key + ": ").contains("'" + value + "'");
  }

  @Test
  void anUnknownStoreNamesTheStoresFoundAndHowToAddRedis() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> Stores.create("redis", ConfigLookup.of(Map.of()), LOADER));

    assertThat(e.key()).isEqualTo("limiter.store");
    assertThat(e.getMessage()).contains("'redis'").contains("memory").contains("limiter-redis");
  }

  @Test
  void aMisspeltStoreNameSuggestsTheStoreAndItsArtifact() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class, () -> Stores.create("redsi", ConfigLookup.of(Map.of()), LOADER));

    assertThat(e.getMessage())
        .contains("no store named 'redsi' on the class path")
        .contains("did you mean 'redis'? It is in io.github.limiter:limiter-redis");
  }

  /**
   * Issue 36.4: {@code limiter.store=redis} without limiter-redis is one problem, of {@code
   * limiter.store}, not one of each {@code limiter.redis.*} key that only redis would read.
   */
  @Test
  void aStoreNotOnTheClassPathIsOneProblemOfLimiterStore() {
    // Given limiter.store=redis and a redis key, without limiter-redis on the class path
    ConfigLookup config =
        ConfigLookup.of(
            Map.of("limiter.store", "redis", "limiter.redis.url", "redis://127.0.0.1:6379"));

    // When the store is checked
    ConfigException e =
        catchThrowableOfType(ConfigException.class, () -> Stores.check("redis", config, LOADER));

    // Then the one problem names the key, the value, the stores found and the artifact to add
    assertThat(e.problems()).hasSize(1);
    assertThat(e.getMessage())
        .isEqualTo(
            "limiter.store: no store named 'redis' on the class path; stores found: [memory]; add"
                + " the io.github.limiter:limiter-redis dependency, was 'redis'");
  }

  @Test
  void aMisspeltStoreKeySuggestsTheClosestKey() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                Stores.check(
                    "memory", ConfigLookup.of(Map.of("limiter.memory.max-key", "10")), LOADER));

    assertThat(e.getMessage()).endsWith("; did you mean 'limiter.memory.max-keys'?");
  }

  /**
   * A misspelt store key, or one of a store or a module's section not on the class path, fails
   * instead of leaving a default.
   */
  @ParameterizedTest
  @CsvSource({
    "limiter.memory.max-key, 10, store 'memory' reads [limiter.memory.max-keys, limiter.memory.overflow]",
    "LIMITER_MEMORY_MAXKEYS, 10, (here in their environment form)",
    "limiter.redis.url, redis://127.0.0.1:6379, no store named 'redis' on the class path; stores found: [memory]; add the io.github.limiter:limiter-redis dependency",
    "limiter.memroy.max-keys, 10, no store named 'memroy'",
    "limiter.outbound.partner.limits, 5/s, limiter.outbound.* is read by io.github.limiter:limiter-outbound, which is not on the class path; add that dependency"
  })
  void anUnknownStoreKeyNamesTheKeyAndTheValue(String key, String value, String says) {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () -> Stores.create("memory", ConfigLookup.of(Map.of(key, value)), LOADER));

    assertThat(e).as(key).isNotNull();
    assertThat(e.key()).isEqualTo(key);
    assertThat(e.getMessage())
        .startsWith(key + ": unknown key")
        .contains(says)
        .contains("'" + value + "'");
  }

  @Test
  void storeKeysInEitherFormAndTheCoresKeysPass() {
    ConfigLookup config =
        ConfigLookup.of(
            Map.of(
                "limiter.memory.max-keys", "10",
                "LIMITER_MEMORY_OVERFLOW", "evict",
                "limiter.policy.api.limits", "10/s",
                "limiter.http.headers", "false",
                "limiter.store", "memory",
                "LIMITER_STORE", "memory"));

    assertThat(Stores.check("memory", config, LOADER).name()).isEqualTo("memory");
  }
}
