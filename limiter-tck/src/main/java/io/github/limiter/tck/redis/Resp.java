package io.github.limiter.tck.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Just enough RESP2 for test set-up and checks: commands on a connected socket, one at a time. The
 * harness needs no Redis client library, so modules that use it keep their own client choice.
 */
final class Resp {

  private Resp() {}

  /** One connection's streams; the input is buffered once, so that several calls may share it. */
  static final class Connection {
    private final OutputStream out;
    private final InputStream in;

    Connection(Socket socket) throws IOException {
      this.out = socket.getOutputStream();
      this.in = new BufferedInputStream(socket.getInputStream());
    }

    /**
     * Sends {@code args} as one command and reads the reply: a simple string or bulk string as
     * {@link String}, an integer as {@link Long}, an array as a {@link List}, a null bulk or array
     * as null.
     *
     * @throws RedisReplyException for an error reply
     */
    Object call(String... args) throws IOException {
      out.write(encode(args));
      out.flush();
      return read(in);
    }
  }

  static byte[] encode(String... args) {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    ascii(request, "*" + args.length + "\r\n");
    for (String arg : args) {
      byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
      ascii(request, "$" + bytes.length + "\r\n");
      request.writeBytes(bytes);
      ascii(request, "\r\n");
    }
    return request.toByteArray();
  }

  private static void ascii(ByteArrayOutputStream out, String text) {
    out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
  }

  static Object read(InputStream in) throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new EOFException("connection closed before a reply");
    }
    String line = line(in);
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new RedisReplyException(line);
      case ':':
        return Long.parseLong(line);
      case '$':
        {
          int length = Integer.parseInt(line);
          if (length < 0) {
            return null;
          }
          byte[] bytes = in.readNBytes(length);
          if (bytes.length != length || in.read() != '\r' || in.read() != '\n') {
            throw new EOFException("truncated bulk reply");
          }
          return new String(bytes, StandardCharsets.UTF_8);
        }
      case '*':
        {
          int count = Integer.parseInt(line);
          if (count < 0) {
            return null;
          }
          List<Object> items = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            try {
              items.add(read(in));
            } catch (RedisReplyException e) {
              // An error inside an array (e.g. from EXEC) is a value, not a failure of the call.
              items.add(e);
            }
          }
          return items;
        }
      default:
        throw new IOException("not a RESP2 reply: '" + (char) type + line + "'");
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); ; b = in.read()) {
      if (b < 0) {
        throw new EOFException("connection closed inside a reply");
      }
      if (b == '\r') {
        if (in.read() != '\n') {
          throw new IOException("expected CRLF in a reply");
        }
        return line.toString(StandardCharsets.UTF_8);
      }
      line.write(b);
    }
  }
}
