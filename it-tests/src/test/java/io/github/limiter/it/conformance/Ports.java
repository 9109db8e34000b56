package io.github.limiter.it.conformance;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports for servers that take a port offset. */
final class Ports {

  private Ports() {}

  /** An offset in [10000, 40000) that leaves each of {@code ports} free on 127.0.0.1. */
  static int freeOffset(int... ports) {
    for (int attempt = 0; attempt < 200; attempt++) {
      int offset = ThreadLocalRandom.current().nextInt(10_000, 40_000);
      boolean free = true;
      for (int port : ports) {
        free &= isFree(port + offset);
      }
      if (free) {
        return offset;
      }
    }
    throw new IllegalStateException("no port offset leaves all of the server's ports free");
  }

  private static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
