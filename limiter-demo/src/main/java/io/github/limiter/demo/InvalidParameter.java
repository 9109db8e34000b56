package io.github.limiter.demo;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;

/**
 * A request parameter the demo cannot use, answered {@code 400 Bad Request} with an RFC 9457
 * problem body whose detail names the parameter and its value. The endpoints read their parameters
 * through {@link #integer} and {@link #text}, so that a client's mistake is never answered 500 and
 * never reaches Limiter, which refuses some values outright ({@code ActualCost.report} of a
 * negative cost throws).
 */
public final class InvalidParameter extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The most characters of a bad value that the answer repeats. */
  private static final int SHOWN = 40;

  private InvalidParameter(String name, String value, String expected) {
    super(name + ": expected " + expected + ", was " + shown(value), null, false, false);
  }

  /**
   * {@code value} as an integer from {@code min} to {@code max}, in decimal digits only (as Limiter
   * reads a cost: no sign, no spaces).
   */
  static int integer(String name, String value, int min, int max) {
    if (value != null && value.matches("[0-9]{1,10}")) {
      long number = Long.parseLong(value);
      if (number >= min && number <= max) {
        return (int) number;
      }
    }
    throw new InvalidParameter(name, value, "an integer from " + min + " to " + max);
  }

  /** {@code value} if it is one of {@code options}. */
  static String oneOf(String name, String value, String... options) {
    for (String option : options) {
      if (option.equals(value)) {
        return value;
      }
    }
    throw new InvalidParameter(name, value, "one of " + String.join(", ", options));
  }

  /**
   * {@code value} as text of 1 to {@code maxLength} characters, not blank, no control characters.
   */
  static String text(String name, String value, int maxLength) {
    if (value != null
        && !value.isBlank()
        && value.length() <= maxLength
        && value.chars().noneMatch(Character::isISOControl)) {
      return value;
    }
    throw new InvalidParameter(
        name, value, "1 to " + maxLength + " characters, not blank, without control characters");
  }

  /** Answers a servlet's request with this problem. */
  void send(HttpServletResponse response) throws IOException {
    response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
    response.setContentType(Problem.JSON);
    response.setCharacterEncoding("UTF-8");
    response.getWriter().print(problem());
  }

  /**
   * The problem document: the status's own type and title, and this detail, its markup characters
   * escaped too, so that no client's value reads as markup.
   */
  String problem() {
    return Problem.json(Response.Status.BAD_REQUEST, getMessage());
  }

  private static String shown(String value) {
    if (value == null) {
      return "missing";
    }
    return value.codePointCount(0, value.length()) <= SHOWN
        ? "'" + value + "'"
        : "'" + value.substring(0, value.offsetByCodePoints(0, SHOWN)) + "...'";
  }

  /** Answers a JAX-RS resource's request with the problem; found by {@code @Provider} scanning. */
  @Provider
  public static final class Mapper implements ExceptionMapper<InvalidParameter> {

    @Override
    public Response toResponse(InvalidParameter invalid) {
      return Response.status(Response.Status.BAD_REQUEST)
          .type(Problem.JSON)
          .entity(invalid.problem())
          .build();
    }
  }
}
