package dev.agentdesk.app.serve;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error responses (a malformed URI or header, rejected before Javalin sees the
 * request) in the same JSON shape as the API's, and never with a stack trace.
 */
final class JsonErrorPage implements Request.Handler {
  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    Object statusAttr = request.getAttribute(ErrorHandler.ERROR_STATUS);
    int status = statusAttr instanceof Integer i ? i : response.getStatus();
    if (status < 400) {
      status = 500;
    }
    String code = status >= 500 ? "internal" : "bad_request";
    String message = status >= 500 ? "internal error; see the server log" : "malformed request (HTTP " + status + ")";
    byte[] body = Json.write(new ErrorBody(code, message)).getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
