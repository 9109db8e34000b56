package io.github.limiter.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP/1.1 client for the tests; every call is bounded in time. */
public final class Http {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  private Http() {}

  /** GETs {@code uri} with the given header name/value pairs. */
  public static HttpResponse<String> get(URI uri, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
    if (headers.length > 0) {
      request.headers(headers);
    }
    return send(request);
  }

  /** Sends {@code request}, bounded to 20 s. */
  public static HttpResponse<String> send(HttpRequest.Builder request) {
    HttpRequest built = request.timeout(Duration.ofSeconds(20)).build();
    try {
      return CLIENT.send(built, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(built.method() + " " + built.uri(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + built.method() + " " + built.uri(), e);
    }
  }
}
