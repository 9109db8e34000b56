package io.github.limiter.tck.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 that stands for a link between regions: each chunk of bytes arrives half
 * a round-trip time later, the round trip drawn between {@code minRtt} and {@code maxRtt} (jitter),
 * in order. {@link #cut} drops every byte from then on and keeps the sockets open, as a partition
 * does (callers time out); {@link #restore} forwards again and closes the connections that lost
 * bytes, so that clients reconnect on a clean stream.
 */
public final class LatencyProxy implements AutoCloseable {

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final long minOneWayNanos;
  private final long maxOneWayNanos;
  private final Random random;
  private final Set<Link> links = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private volatile boolean cut;
  private volatile boolean closed;

  private LatencyProxy(int targetPort, Duration minRtt, Duration maxRtt, long seed)
      throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
    this.minOneWayNanos = minRtt.toNanos() / 2;
    this.maxOneWayNanos = Math.max(minOneWayNanos, maxRtt.toNanos() / 2);
    this.random = new Random(seed);
    this.acceptor = new Thread(this::accept, "latency-proxy-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** A proxy to {@code 127.0.0.1:targetPort} with a round trip between the two durations. */
  public static LatencyProxy start(int targetPort, Duration minRtt, Duration maxRtt, long seed) {
    try {
      return new LatencyProxy(targetPort, minRtt, maxRtt, seed);
    } catch (IOException e) {
      throw new IllegalStateException("cannot open a proxy port on 127.0.0.1", e);
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  /** {@code redis://127.0.0.1:<port>}. */
  public String url() {
    return "redis://127.0.0.1:" + port();
  }

  /** From now on every byte is dropped, both ways; the sockets stay open. */
  public void cut() {
    cut = true;
    links.forEach(link -> link.lost = true);
  }

  /** Forwards again; the connections that lost bytes are closed. */
  public void restore() {
    cut = false;
    for (Link link : links) {
      if (link.lost) {
        link.close();
      }
    }
  }

  private synchronized long oneWay() {
    return minOneWayNanos
        + (maxOneWayNanos == minOneWayNanos
            ? 0
            : (long) (random.nextDouble() * (maxOneWayNanos - minOneWayNanos)));
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(target, 1000);
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        Link link = new Link(client, upstream);
        link.lost = cut;
        links.add(link);
        link.start();
      } catch (IOException e) {
        if (closed) {
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // closing
    }
    links.forEach(Link::close);
  }

  /** One client connection and its upstream, with one delivering thread per direction. */
  private final class Link {
    private static final AtomicInteger COUNT = new AtomicInteger();
    final Socket client;
    final Socket upstream;
    final ScheduledExecutorService deliver;
    volatile boolean lost;
    private long lastUp;
    private long lastDown;

    Link(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
      int n = COUNT.incrementAndGet();
      this.deliver =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "latency-proxy-deliver-" + n);
                t.setDaemon(true);
                return t;
              });
    }

    void start() throws IOException {
      pump(client.getInputStream(), upstream.getOutputStream(), true);
      pump(upstream.getInputStream(), client.getOutputStream(), false);
    }

    private void pump(InputStream in, OutputStream out, boolean up) {
      Thread t =
          new Thread(
              () -> {
                byte[] buffer = new byte[16 * 1024];
                try {
                  for (int n; (n = in.read(buffer)) >= 0; ) {
                    if (cut) {
                      lost = true;
                      continue;
                    }
                    byte[] chunk = Arrays.copyOf(buffer, n);
                    long due = due(up);
                    deliver.schedule(
                        () -> {
                          try {
                            if (!cut) {
                              out.write(chunk);
                              out.flush();
                            } else {
                              lost = true;
                            }
                          } catch (IOException e) {
                            close();
                          }
                        },
                        due - System.nanoTime(),
                        TimeUnit.NANOSECONDS);
                  }
                } catch (IOException | RejectedExecutionException e) {
                  // closed
                }
                try {
                  deliver.schedule(this::close, maxOneWayNanos + 1, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException e) {
                  // closed already
                }
              },
              "latency-proxy-pump");
      t.setDaemon(true);
      t.start();
    }

    /** When a chunk read now arrives: half a round trip later, never before the one before it. */
    private synchronized long due(boolean up) {
      long at = System.nanoTime() + oneWay();
      if (up) {
        lastUp = Math.max(lastUp, at);
        return lastUp;
      }
      lastDown = Math.max(lastDown, at);
      return lastDown;
    }

    void close() {
      links.remove(this);
      try {
        client.close();
      } catch (IOException e) {
        // closing
      }
      try {
        upstream.close();
      } catch (IOException e) {
        // closing
      }
      deliver.shutdown();
    }
  }
}
