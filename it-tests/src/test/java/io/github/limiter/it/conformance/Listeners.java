package io.github.limiter.it.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets that processes listen on, read from Linux's {@code /proc} as {@code ss -ltnp}
 * does: each process's socket inodes from {@code /proc/PID/fd}, matched with the LISTEN rows of
 * {@code /proc/net/tcp} and {@code tcp6}.
 */
final class Listeners {

  /** A listening socket: its address and port. */
  record Listener(InetAddress address, int port) {
    boolean isLoopback() {
      return address.isLoopbackAddress();
    }

    @Override
    public String toString() {
      return address.getHostAddress() + ":" + port;
    }
  }

  private Listeners() {}

  /** Every TCP socket that one of {@code pids} listens on. */
  static List<Listener> of(List<Long> pids) {
    Set<String> inodes = new HashSet<>();
    for (long pid : pids) {
      try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
        fds.forEach(
            fd -> {
              try {
                String target = Files.readSymbolicLink(fd).toString();
                if (target.startsWith("socket:[")) {
                  inodes.add(target.substring(8, target.length() - 1));
                }
              } catch (IOException e) {
                // The descriptor was closed meanwhile.
              }
            });
      } catch (IOException e) {
        // The process ended meanwhile.
      }
    }
    List<Listener> listeners = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> rows;
      try {
        rows = Files.readAllLines(Path.of(table));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + table, e);
      }
      for (String row : rows.subList(1, rows.size())) {
        String[] column = row.strip().split("\\s+");
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        if (column[3].equals("0A") && inodes.contains(column[9])) {
          listeners.add(parse(column[1]));
        }
      }
    }
    return listeners;
  }

  /** {@code 0100007F:1F90} (IPv4) or 32 hex digits and a port (IPv6), in host byte order words. */
  private static Listener parse(String hex) {
    String[] parts = hex.split(":");
    String address = parts[0];
    byte[] bytes = new byte[address.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        // Each 32-bit word is printed little-endian.
        int at = word * 8 + (3 - i) * 2;
        bytes[word * 4 + i] = (byte) Integer.parseInt(address.substring(at, at + 2), 16);
      }
    }
    try {
      return new Listener(InetAddress.getByAddress(bytes), Integer.parseInt(parts[1], 16));
    } catch (UnknownHostException e) {
      throw new IllegalStateException("not an address: " + hex, e);
    }
  }
}
