package io.github.limiter.tck.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One page in a headless Chromium, driven through the DevTools protocol as an operator's hands
 * would be: scripts evaluated in the page (typing, clicking, reading the DOM), and screenshots.
 * Closing it ends the browser.
 */
public final class DevToolsPage implements WebSocket.Listener, AutoCloseable {

  private static final Pattern LISTENING =
      Pattern.compile("DevTools listening on ws://[^:]+:(\\d+)/");
  private static final Pattern PAGE =
      Pattern.compile("\"webSocketDebuggerUrl\": \"(ws://[^\"]+/page/[^\"]+)\"");
  private static final Pattern VALUE =
      Pattern.compile("\"value\":(\"((?:[^\"\\\\]|\\\\.)*)\"|[^,}]+)");
  private static final Pattern DATA = Pattern.compile("\"data\":\"([^\"]+)\"");

  private static final Duration AWAIT = Duration.ofSeconds(30);
  private static final String NOT_YET = "devtools-page: not yet";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final Process browser;
  private final WebSocket socket;
  private final StringBuilder part = new StringBuilder();
  private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
  private int id;

  private DevToolsPage(Process browser, String why) throws Exception {
    this.browser = browser;
    BufferedReader err =
        new BufferedReader(new InputStreamReader(browser.getErrorStream(), StandardCharsets.UTF_8));
    String port = null;
    for (String line = err.readLine(); line != null && port == null; line = err.readLine()) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        port = m.group(1);
      }
    }
    assertThat(port).as("chromium's DevTools port, for a test that " + why).isNotNull();
    Thread drain = new Thread(() -> drain(err), "chromium-log");
    drain.setDaemon(true);
    drain.start();
    String targets =
        http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .timeout(Duration.ofSeconds(20))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    Matcher ws = PAGE.matcher(targets);
    assertThat(ws.find()).as(targets).isTrue();
    socket =
        http.newWebSocketBuilder()
            .buildAsync(URI.create(ws.group(1)), this)
            .get(30, TimeUnit.SECONDS);
  }

  /**
   * Opens {@code url} in a new headless browser whose DevTools listen on a free loopback port.
   *
   * @param why what the test does in the browser, for the message when there is none
   * @param windowSize e.g. {@code 1400,1000}
   */
  public static DevToolsPage open(String why, String url, String windowSize) throws Exception {
    Path profile = Files.createTempDirectory("chromium-profile");
    List<String> command = new ArrayList<>();
    command.add(Chromium.binary(why));
    command.addAll(Chromium.HEADLESS);
    command.addAll(
        List.of(
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            "--window-size=" + windowSize,
            "--user-data-dir=" + profile,
            url));
    Process browser =
        new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try {
      return new DevToolsPage(browser, why);
    } catch (Exception | AssertionError e) {
      stop(browser);
      throw e;
    }
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    part.append(data);
    if (last) {
      replies.add(part.toString());
      part.setLength(0);
    }
    webSocket.request(1);
    return null;
  }

  /**
   * The value of {@code expression} evaluated in the page (a promise is awaited), as a string; null
   * if the page navigated away meanwhile (its script context went). Fails on a script error.
   */
  public String eval(String expression) throws Exception {
    String reply =
        call(
            "Runtime.evaluate",
            "{\"expression\":"
                + quote(expression)
                + ",\"awaitPromise\":true,\"returnByValue\":true}");
    if (reply.contains("Execution context was destroyed")
        || reply.contains("Cannot find context")
        || reply.contains("Inspected target navigated")) {
      return null;
    }
    assertThat(reply).as(expression).doesNotContain("exceptionDetails");
    Matcher value = VALUE.matcher(reply);
    assertThat(value.find()).as(reply).isTrue();
    return value.group(2) != null ? unquote(value.group(2)) : value.group(1);
  }

  /**
   * The value of {@code value} once {@code condition} holds in the page, polled there every 20 ms;
   * across navigations (a reload, a redirect) it waits for the next page, and a condition that
   * throws (the page not parsed yet) does not hold yet. Fails after 30 s, saying what the page's
   * status line showed then.
   */
  public String await(String condition, String value) throws Exception {
    long deadline = System.nanoTime() + AWAIT.toNanos();
    for (long left = AWAIT.toMillis(); left > 0; ) {
      // The page gives up before the browser's answer is overdue, so a miss is reported as one.
      String script =
          "new Promise(done => { const end = Date.now() + "
              + left
              + "; const holds = () => { try { return ("
              + condition
              + "); } catch (e) { return false; } }; const t = () => holds() ? done("
              + value
              + ") : Date.now() > end ? done("
              + quote(NOT_YET)
              + ") : setTimeout(t, 20); t(); })";
      String result = eval(script); // null at once while the page navigates: then again
      if (result != null && !result.equals(NOT_YET)) {
        return result;
      }
      left = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
    }
    throw new AssertionError(
        "not within "
            + AWAIT.toSeconds()
            + " s: "
            + condition
            + "; the page's #status then: "
            + eval("(document.getElementById('status') || {}).textContent || 'none'"));
  }

  /** A PNG of the page as the browser shows it now. */
  public byte[] screenshot() throws Exception {
    String reply = call("Page.captureScreenshot", "{\"format\":\"png\"}");
    Matcher data = DATA.matcher(reply);
    assertThat(data.find())
        .as("a screenshot in " + reply.substring(0, Math.min(200, reply.length())))
        .isTrue();
    return Base64.getDecoder().decode(data.group(1));
  }

  private String call(String method, String params) throws Exception {
    int call = ++id;
    socket
        .sendText(
            "{\"id\":" + call + ",\"method\":\"" + method + "\",\"params\":" + params + "}", true)
        .get(30, TimeUnit.SECONDS);
    while (true) {
      String reply = replies.poll(40, TimeUnit.SECONDS);
      assertThat(reply).as("chromium's answer to " + method + " " + params).isNotNull();
      if (reply.startsWith("{\"id\":" + call + ",")) {
        return reply;
      }
    }
  }

  /** Ends the connection and the browser. */
  @Override
  public void close() {
    socket.abort();
    stop(browser);
  }

  private static void stop(Process browser) {
    browser.destroy();
    try {
      if (!browser.waitFor(30, TimeUnit.SECONDS)) {
        browser.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      browser.destroyForcibly();
    }
  }

  private static void drain(BufferedReader err) {
    try {
      while (err.readLine() != null) {
        // Chromium's log: not needed
      }
    } catch (IOException e) {
      // the browser ended
    }
  }

  /** {@code text} as a JSON string. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** The text of a JSON string's body (without its quotes). */
  static String unquote(String body) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c != '\\' || i + 1 == body.length()) {
        out.append(c);
        continue;
      }
      char e = body.charAt(++i);
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(body.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> out.append(e);
      }
    }
    return out.toString();
  }
}
