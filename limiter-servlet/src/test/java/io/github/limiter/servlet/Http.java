package io.github.limiter.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Real HTTP to a {@link TestServer}: java.net.http for well-formed requests, raw sockets for
 * garbage.
 */
final class Http {

  static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private Http() {}

  /** GET {@code uri} with header name/value pairs. */
  static HttpResponse<String> get(URI uri, String... headers)
      throws IOException, InterruptedException {
    return CLIENT.send(request(uri, "GET", headers), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> send(URI uri, String method, String... headers)
      throws IOException, InterruptedException {
    return CLIENT.send(request(uri, method, headers), HttpResponse.BodyHandlers.ofString());
  }

  static CompletableFuture<HttpResponse<String>> getAsync(URI uri, String... headers) {
    return CLIENT.sendAsync(request(uri, "GET", headers), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest request(URI uri, String method, String... headers) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(20))
            .method(method, HttpRequest.BodyPublishers.noBody());
    for (int i = 0; i < headers.length; i += 2) {
      builder.header(headers[i], headers[i + 1]);
    }
    return builder.build();
  }

  /** Sends {@code head} (request line and headers, CRLF-separated, without the blank line) raw. */
  static RawResponse raw(int port, String head) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      return new RawResponse(all.toString(StandardCharsets.ISO_8859_1));
    }
  }

  record RawResponse(String text) {
    int status() {
      if (!text.startsWith("HTTP/1.1 ")) {
        throw new AssertionError("not an HTTP response: '" + text + "'");
      }
      return Integer.parseInt(text.substring(9, 12));
    }

    String body() {
      int end = text.indexOf("\r\n\r\n");
      return end < 0 ? "" : text.substring(end + 4);
    }
  }
}
