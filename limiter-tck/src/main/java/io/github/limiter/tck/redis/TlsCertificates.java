package io.github.limiter.tck.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away certificate authority, a server certificate for 127.0.0.1 and localhost and a client
 * certificate, made with {@code openssl} from the PATH, plus a PKCS12 trust store holding the
 * authority and a PKCS12 key store holding the client's key: what a TLS redis-server ({@link
 * RedisServer#startTls}) and its clients need in a test.
 */
public final class TlsCertificates {

  private static final String TRUSTSTORE_PASSWORD = "changeit";

  private final Path dir;
  private final SSLContext sslContext;

  private TlsCertificates(Path dir, SSLContext sslContext) {
    this.dir = dir;
    this.sslContext = sslContext;
  }

  /**
   * Generates the authority, the server key and certificate (valid for two days) and the trust
   * store into {@code where}, replacing what is there.
   *
   * @throws IllegalStateException if openssl is missing or fails; its output is in the message
   */
  public static TlsCertificates generate(Path where) {
    // Absolute: redis-server changes its working directory to its --dir before it reads them.
    Path dir = where.toAbsolutePath();
    try {
      Files.createDirectories(dir);
      Files.writeString(
          dir.resolve("server.ext"),
          "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n",
          StandardCharsets.US_ASCII);
      openssl(
          dir,
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-days",
          "2",
          "-subj",
          "/CN=limiter test CA",
          "-keyout",
          "ca.key",
          "-out",
          "ca.crt");
      openssl(
          dir,
          "req",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-subj",
          "/CN=localhost",
          "-keyout",
          "server.key",
          "-out",
          "server.csr");
      openssl(
          dir,
          "x509",
          "-req",
          "-in",
          "server.csr",
          "-CA",
          "ca.crt",
          "-CAkey",
          "ca.key",
          "-CAcreateserial",
          "-days",
          "2",
          "-extfile",
          "server.ext",
          "-out",
          "server.crt");
      // A client certificate too, for servers that require one (--tls-auth-clients yes).
      Files.writeString(
          dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n", StandardCharsets.US_ASCII);
      openssl(
          dir,
          "req",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-subj",
          "/CN=limiter test client",
          "-keyout",
          "client.key",
          "-out",
          "client.csr");
      openssl(
          dir,
          "x509",
          "-req",
          "-in",
          "client.csr",
          "-CA",
          "ca.crt",
          "-CAkey",
          "ca.key",
          "-CAcreateserial",
          "-days",
          "2",
          "-extfile",
          "client.ext",
          "-out",
          "client.crt");
      openssl(
          dir,
          "pkcs12",
          "-export",
          "-in",
          "client.crt",
          "-inkey",
          "client.key",
          "-name",
          "limiter-test-client",
          "-passout",
          "pass:" + TRUSTSTORE_PASSWORD,
          "-out",
          "client.p12");
      KeyStore truststore = KeyStore.getInstance("PKCS12");
      truststore.load(null, null);
      truststore.setCertificateEntry("limiter-test-ca", certificate(dir.resolve("ca.crt")));
      try (OutputStream out = Files.newOutputStream(dir.resolve("truststore.p12"))) {
        truststore.store(out, TRUSTSTORE_PASSWORD.toCharArray());
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(truststore);
      KeyStore keystore = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(dir.resolve("client.p12"))) {
        keystore.load(in, TRUSTSTORE_PASSWORD.toCharArray());
      }
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(keystore, TRUSTSTORE_PASSWORD.toCharArray());
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
      return new TlsCertificates(dir, context);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write certificates to " + dir, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the trust store in " + dir, e);
    }
  }

  private static Certificate certificate(Path file) throws IOException, GeneralSecurityException {
    try (InputStream in = Files.newInputStream(file)) {
      return CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  private static void openssl(Path dir, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(args));
    Process process;
    try {
      process =
          new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run openssl (is it on the PATH?)", e);
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while running openssl", e);
    }
  }

  /** The authority's certificate (PEM), for {@code --tls-ca-cert-file} and PEM-reading clients. */
  public Path caCertificate() {
    return dir.resolve("ca.crt");
  }

  /** The server's certificate (PEM), for 127.0.0.1 and localhost. */
  public Path serverCertificate() {
    return dir.resolve("server.crt");
  }

  /** The server's private key (PEM, unencrypted). */
  public Path serverKey() {
    return dir.resolve("server.key");
  }

  /** A PKCS12 trust store holding the authority, protected by {@link #truststorePassword()}. */
  public Path truststore() {
    return dir.resolve("truststore.p12");
  }

  public String truststorePassword() {
    return TRUSTSTORE_PASSWORD;
  }

  /**
   * A PKCS12 key store holding the client's key and its certificate from the authority, protected
   * by {@link #keystorePassword()}.
   */
  public Path keystore() {
    return dir.resolve("client.p12");
  }

  public String keystorePassword() {
    return TRUSTSTORE_PASSWORD;
  }

  /**
   * A client context that trusts the authority and nothing else, and presents the client
   * certificate.
   */
  public SSLContext sslContext() {
    return sslContext;
  }

  /**
   * The redis-server options that serve these certificates; clients need none of their own unless
   * {@code --tls-auth-clients yes} follows.
   */
  List<String> serverArgs() {
    return List.of(
        "--tls-cert-file", serverCertificate().toString(),
        "--tls-key-file", serverKey().toString(),
        "--tls-ca-cert-file", caCertificate().toString(),
        "--tls-auth-clients", "no");
  }
}
