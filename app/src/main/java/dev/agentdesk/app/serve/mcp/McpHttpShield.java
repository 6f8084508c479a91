package dev.agentdesk.app.serve.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.serve.Json;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * What the MCP SDK's Streamable HTTP servlet sends, made fit for the wire:
 *
 * <ul>
 *   <li>A transport error (malformed JSON, no or unknown session, a wrong Accept) is written by
 *       the SDK as its {@code McpError} exception object, stack trace included: class names, line
 *       numbers, the Java version. It leaves here as a JSON-RPC error object and nothing more.
 *   <li>{@code GET /mcp} would open a standalone SSE stream that this server never uses (it sends
 *       nothing unasked) and that cannot be resumed; the spec's answer for a server without one is
 *       405, which tells a client not to wait on it.
 *   <li>Every SSE event carried the session id as its {@code id}, the same for every event of
 *       every stream, so a client resuming with {@code Last-Event-ID} would name no event at all.
 *       Events leave without ids: the spec makes them optional, and without them no client tries
 *       to resume a stream this server cannot replay.
 * </ul>
 */
final class McpHttpShield extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final transient HttpServlet sdk;

  McpHttpShield(HttpServlet sdk) {
    this.sdk = sdk;
  }

  @Override
  public void init() throws ServletException {
    sdk.init(getServletConfig());
  }

  @Override
  public void destroy() {
    sdk.destroy();
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse res) throws ServletException, IOException {
    if (req.getMethod().equals("GET")) {
      res.setHeader("Allow", "POST, DELETE");
      writeError(res, HttpServletResponse.SC_METHOD_NOT_ALLOWED, -32600,
          "this server offers no SSE stream on GET: send requests with POST; answers come back on the POST");
      return;
    }
    Shielded shielded = new Shielded(res);
    sdk.service(req, shielded);
    shielded.finish();
  }

  /** A JSON-RPC error object with no request id (the transport could not read one). */
  static ObjectNode errorBody(int code, String message) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("jsonrpc", "2.0");
    body.putNull("id");
    ObjectNode error = body.putObject("error");
    error.put("code", code);
    error.put("message", message);
    return body;
  }

  static void writeError(HttpServletResponse res, int status, int code, String message) throws IOException {
    byte[] bytes = Json.MAPPER.writeValueAsBytes(errorBody(code, message));
    res.setStatus(status);
    res.setContentType("application/json;charset=utf-8");
    res.setContentLength(bytes.length);
    res.getOutputStream().write(bytes);
  }

  /** The JSON-RPC error for the SDK's error body: its message, a code that says what kind it was. */
  static JsonNode rewrite(int status, byte[] sdkBody) {
    String message;
    int code;
    try {
      JsonNode n = Json.MAPPER.readTree(sdkBody);
      JsonNode rpc = n.path("jsonRpcError");
      message = rpc.path("message").asText(n.path("message").asText(
          status == HttpServletResponse.SC_NOT_FOUND ? "Session not found" : "request refused"));
      code = rpc.path("code").asInt(-32600);
      if (n.has("jsonrpc") && n.has("error")) {
        return n; // already a JSON-RPC error
      }
    } catch (IOException e) {
      // Not JSON: a plain reason, or nothing at all (the SDK's bare status for an unknown session).
      message = new String(sdkBody, StandardCharsets.UTF_8).strip();
      if (message.isEmpty()) {
        message = status == HttpServletResponse.SC_NOT_FOUND ? "Session not found" : "request refused";
      }
      code = -32600;
    }
    if (message.startsWith("Invalid message format")) {
      // The parser's own words name its classes; the place in the body is what helps.
      java.util.regex.Matcher where = java.util.regex.Pattern.compile("line: (\\d+), column: (\\d+)").matcher(message);
      message = "Parse error: the body is not a JSON-RPC message (one JSON object with jsonrpc \"2.0\")"
          + (where.find() ? " at line " + where.group(1) + ", column " + where.group(2) : "");
      code = -32700;
    } else if (status == HttpServletResponse.SC_NOT_FOUND) {
      code = -32001;
      message = message + " (the session ended or the server restarted: send initialize again)";
    } else if (code == -32601 || code == -32603) {
      code = -32600; // a transport refusal is an invalid request, not a missing method or a crash
    }
    return errorBody(code, message);
  }

  /**
   * Holds back the body of an error answer until the SDK is done with it, and passes an SSE
   * stream through line by line without its {@code id:} lines.
   */
  private static final class Shielded extends HttpServletResponseWrapper {
    private final HttpServletResponse res;
    private final ByteArrayOutputStream held = new ByteArrayOutputStream();
    private int status = SC_OK;
    private ServletOutputStream stream;
    private PrintWriter writer;
    private SseIdFilter sse;

    Shielded(HttpServletResponse res) {
      super(res);
      this.res = res;
    }

    @Override
    public void setStatus(int sc) {
      status = sc;
      super.setStatus(sc);
    }

    @Override
    public void sendError(int sc, String msg) throws IOException {
      setStatus(sc);
      if (msg != null) {
        held.write(msg.getBytes(StandardCharsets.UTF_8));
      }
    }

    @Override
    public void sendError(int sc) throws IOException {
      sendError(sc, null);
    }

    private boolean holding() {
      return status >= 400;
    }

    private OutputStream target() throws IOException {
      if (holding()) {
        return held;
      }
      if (sse == null) {
        sse = new SseIdFilter(res.getOutputStream());
      }
      return sse;
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
      if (stream == null) {
        stream = new ServletOutputStream() {
          @Override
          public boolean isReady() {
            try {
              return holding() || res.getOutputStream().isReady();
            } catch (IOException e) {
              return false;
            }
          }

          @Override
          public void setWriteListener(WriteListener l) {
            try {
              res.getOutputStream().setWriteListener(l);
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
          }

          @Override
          public void write(int b) throws IOException {
            target().write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            OutputStream t = target();
            for (int i = 0; i < len; i++) {
              t.write(b[off + i]);
            }
          }

          @Override
          public void flush() throws IOException {
            target().flush();
          }
        };
      }
      return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
      if (writer == null) {
        writer = new PrintWriter(new OutputStreamWriter(getOutputStream(), StandardCharsets.UTF_8), false);
      }
      return writer;
    }

    @Override
    public void setContentLength(int len) {
      if (!holding()) {
        super.setContentLength(len);
      }
    }

    @Override
    public void setContentLengthLong(long len) {
      if (!holding()) {
        super.setContentLengthLong(len);
      }
    }

    @Override
    public void flushBuffer() throws IOException {
      if (writer != null) {
        writer.flush();
      }
      if (!holding()) {
        super.flushBuffer();
      }
    }

    /** After the SDK returned: an error answer is sent now, as a JSON-RPC error. */
    void finish() throws IOException {
      if (writer != null) {
        writer.flush();
      }
      if (holding() && !res.isCommitted()) {
        byte[] body = Json.MAPPER.writeValueAsBytes(rewrite(status, held.toByteArray()));
        res.setContentType("application/json;charset=utf-8");
        res.setContentLength(body.length);
        res.getOutputStream().write(body);
      }
    }
  }

  /** Drops SSE {@code id:} lines from a stream of events, passing every other byte on as it comes. */
  static final class SseIdFilter extends OutputStream {
    private final OutputStream out;
    /** The start of the current line while it could still be an id line. */
    private final byte[] start = new byte[3];
    private int startLen;
    private boolean lineStart = true;
    private boolean dropping;

    SseIdFilter(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      if (dropping) {
        if (b == '\n') {
          dropping = false;
          lineStart = true;
        }
        return;
      }
      if (lineStart) {
        start[startLen++] = (byte) b;
        if (startLen < 3 && "id:".startsWith(new String(start, 0, startLen, StandardCharsets.US_ASCII))) {
          return;
        }
        if (startLen == 3 && new String(start, 0, 3, StandardCharsets.US_ASCII).equals("id:")) {
          dropping = true;
          lineStart = false;
          startLen = 0;
          return;
        }
        lineStart = false;
        out.write(start, 0, startLen);
        startLen = 0;
        if (b == '\n') {
          lineStart = true;
        }
        return;
      }
      out.write(b);
      if (b == '\n') {
        lineStart = true;
      }
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (startLen > 0) {
        out.write(start, 0, startLen);
        startLen = 0;
      }
      out.close();
    }
  }
}
