package io.github.limiter.servlet;

import io.github.limiter.ActualCost;
import io.github.limiter.internal.http.ChargedPolicies;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;

/**
 * The protected application: answers {@code ok}, and tells how it was reached, so that tests can
 * see the dispatch type and the ChargedPolicies scope: {@code ok dispatch=ASYNC charged=[api]} for
 * the names listed in request header {@code X-Check-Charged}. Request header {@code X-Answer} makes
 * it end otherwise: a status such as {@code 401}, {@code async:401} (answered from another thread
 * after an async start) or {@code throw} (a 500 by an exception). Request header {@code X-Used}
 * reports the request's actual cost, from the request's thread, or from the async thread with
 * {@code async:}.
 */
public class OkServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String used = request.getHeader("X-Used");
    if (used != null && !(request.getHeader("X-Answer") + "").startsWith("async:")) {
      ActualCost.current().report(Long.parseLong(used));
    }
    String answer = request.getHeader("X-Answer");
    if (answer != null) {
      answer(answer, request, response);
      return;
    }
    StringBuilder body = new StringBuilder("ok dispatch=").append(request.getDispatcherType());
    String check = request.getHeader("X-Check-Charged");
    if (check != null) {
      body.append(" charged=[");
      String sep = "";
      for (String name : check.split(",")) {
        if (ChargedPolicies.contains(name.trim())) {
          body.append(sep).append(name.trim());
          sep = ",";
        }
      }
      body.append(']');
    }
    Principal principal = request.getUserPrincipal();
    if (principal != null) {
      body.append(" user=").append(principal.getName());
    }
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    response.setContentType("text/plain");
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  private static void answer(
      String answer, HttpServletRequest request, HttpServletResponse response) throws IOException {
    if (answer.equals("throw")) {
      throw new IllegalStateException("the application failed");
    }
    if (answer.startsWith("async:")) {
      int status = Integer.parseInt(answer.substring(6));
      AsyncContext async = request.startAsync();
      ActualCost cost = ActualCost.current(); // taken on the request's thread, used on another
      String used = request.getHeader("X-Used");
      async.start(
          () -> {
            if (used != null) {
              cost.report(Long.parseLong(used));
            }
            ((HttpServletResponse) async.getResponse()).setStatus(status);
            async.complete();
          });
      return;
    }
    response.sendError(Integer.parseInt(answer));
  }
}
