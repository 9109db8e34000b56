package io.github.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.limiter.ConfigException;
import io.github.limiter.Decision;
import io.github.limiter.Limit;
import io.github.limiter.Policy;
import io.github.limiter.RateLimitStore;
import io.github.limiter.spi.ConfigLookup;
import io.github.limiter.tck.redis.Await;
import io.github.limiter.tck.redis.RedisServer;
import io.github.limiter.tck.redis.TlsCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TLS to a real redis-server that speaks TLS only ({@code --port 0 --tls-port}), with a certificate
 * for 127.0.0.1 from a certificate authority made by openssl for this test.
 */
class TlsTest {

  private static final Policy POLICY =
      Policy.fixedWindow("tls", Limit.of(2, Duration.ofHours(1)))
          .withFailureMode(io.github.limiter.FailureMode.FAIL_OPEN);

  private static TlsCertificates certificates;
  private static RedisServer server;

  @BeforeAll
  static void start() {
    certificates = TlsCertificates.generate(Path.of("target", "tls"));
    server = RedisServer.startTls("tls", certificates);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Map<String, String> config(String url) {
    Map<String, String> config = new HashMap<>();
    config.put("limiter.redis.url", url);
    config.put("limiter.redis.decision-timeout", "300ms");
    config.put("limiter.redis.connect-timeout", "1s");
    return config;
  }

  private static Map<String, String> trusting(String url) {
    Map<String, String> config = config(url);
    config.put("limiter.redis.tls.truststore", certificates.truststore().toString());
    config.put("limiter.redis.tls.truststore-password", certificates.truststorePassword());
    return config;
  }

  /**
   * Whether a decision is Redis's own within {@code within}: connections open in the background.
   */
  private static boolean verified(RateLimitStore store, String key, Duration within) {
    return Await.within(within, () -> store.decide(POLICY, key, 1).isVerified());
  }

  @Test
  void aRedissUrlWithTheTrustStoreDecidesThroughTls() {
    assertThat(server.url()).startsWith("rediss://127.0.0.1:");
    try (RateLimitStore store =
        new RedisStoreFactory().create(ConfigLookup.of(trusting(server.url())))) {
      // The server has no plain port, so a verified decision went through TLS
      assertThat(verified(store, "a", Duration.ofSeconds(3))).isTrue();
      Decision second = store.decide(POLICY, "a", 1);
      assertThat(second.isVerified()).isTrue();
      assertThat(second.remaining()).isZero();
      Decision third = store.decide(POLICY, "a", 1);
      assertThat(third.isVerified()).isTrue();
      assertThat(third.outcome()).isEqualTo(Decision.Outcome.LIMITED);
      assertThat(store.health().up()).isTrue();
      assertThat(server.call("EXISTS", ((RedisStore) store).redisKey(POLICY, "a", 0)))
          .isEqualTo(1L);
    }
  }

  @Test
  void aTrustStoreTurnsTlsOnForARedisUrl() {
    String plainScheme = "redis://127.0.0.1:" + server.port();
    try (RateLimitStore store =
        new RedisStoreFactory().create(ConfigLookup.of(trusting(plainScheme)))) {
      assertThat(verified(store, "b", Duration.ofSeconds(3))).isTrue();
    }
  }

  @Test
  void withoutTheTrustStoreTheServerIsNotTrustedAndThePolicyFailsOpen() {
    // The JVM's default trust store does not know this test's certificate authority
    try (RateLimitStore store =
        new RedisStoreFactory().create(ConfigLookup.of(config(server.url())))) {
      assertThat(verified(store, "c", Duration.ofSeconds(1))).isFalse();
      Decision d = store.decide(POLICY, "c", 1);
      assertThat(d.isAllowed()).isTrue();
      assertThat(d.isVerified()).isFalse();
      assertThat(store.health().lastError()).get().asString().contains("PKIX path building failed");
    }
  }

  @Test
  void plainTextToTheTlsPortNeverDecides() {
    Map<String, String> plain = config("redis://127.0.0.1:" + server.port());
    plain.put("limiter.redis.tls", "false");
    try (RateLimitStore store = new RedisStoreFactory().create(ConfigLookup.of(plain))) {
      assertThat(verified(store, "d", Duration.ofSeconds(1))).isFalse();
      assertThat(store.health().lastError()).isPresent();
    }
  }

  /**
   * Mutual TLS: a server that requires a client certificate decides only for a client that presents
   * one.
   */
  @Test
  void aServerThatRequiresClientCertificatesDecidesWithTheKeyStore() {
    try (RedisServer mutual =
        RedisServer.startTls("mtls", certificates, "--tls-auth-clients", "yes")) {
      Map<String, String> withKey =
          withKeystore(
              trusting(mutual.url()), certificates.keystore(), certificates.keystorePassword());
      try (RateLimitStore store = new RedisStoreFactory().create(ConfigLookup.of(withKey))) {
        assertThat(verified(store, "e", Duration.ofSeconds(3))).isTrue();
      }
      try (RateLimitStore store =
          new RedisStoreFactory().create(ConfigLookup.of(trusting(mutual.url())))) {
        assertThat(verified(store, "f", Duration.ofSeconds(1))).isFalse();
        assertThat(store.health().lastError()).isPresent();
      }
    }
  }

  /** A key store is opened at start-up: a wrong password, or a store without a key, fails there. */
  @Test
  void aKeyStoreThatCannotServeFailsAtStartUp() {
    assertStartUpFails(withKeystore(trusting(server.url()), certificates.keystore(), "wrong"))
        .hasMessageStartingWith(
            "limiter.redis.tls.keystore: cannot read the key store with"
                + " limiter.redis.tls.keystore-password")
        .hasMessageContaining(certificates.keystore().toString());
    assertStartUpFails(
            withKeystore(
                trusting(server.url()),
                certificates.truststore(),
                certificates.truststorePassword()))
        .hasMessageStartingWith("limiter.redis.tls.keystore: the key store holds no private key");
    Map<String, String> noCertificate = config(server.url());
    noCertificate.put("limiter.redis.tls.truststore", certificates.keystore().toString());
    noCertificate.put("limiter.redis.tls.truststore-password", certificates.keystorePassword());
    assertStartUpFails(noCertificate)
        .hasMessageStartingWith(
            "limiter.redis.tls.truststore: the trust store holds no trusted certificate");
  }

  private static Map<String, String> withKeystore(
      Map<String, String> config, Path keystore, String password) {
    config.put("limiter.redis.tls.keystore", keystore.toString());
    config.put("limiter.redis.tls.keystore-password", password);
    return config;
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertStartUpFails(
      Map<String, String> config) {
    return assertThatThrownBy(() -> new RedisStoreFactory().create(ConfigLookup.of(config)))
        .isInstanceOf(ConfigException.class);
  }
}
