package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.wire.BinaryFrame;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A raw ACI client over the JDK WebSocket for protocol tests: it sends exact text (including
 * malformed text) and checks every message it receives against the bundled schema.
 */
final class WireClient implements AutoCloseable {
  private static final String CLOSED = "\0closed";
  private final WebSocket ws;
  private final Listener listener;
  private final BlockingQueue<Object> inbox;
  private int validated;
  private int binaryFrames;

  private WireClient(WebSocket ws, Listener listener) {
    this.ws = ws;
    this.listener = listener;
    this.inbox = listener.inbox;
  }

  static WireClient connect(int port) {
    Listener l = new Listener();
    WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/"), l).join();
    return new WireClient(ws, l);
  }

  /** Connects and completes the handshake; returns the welcome. */
  static WireClient authenticated(int port, String token) {
    WireClient c = connect(port);
    c.send("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"test\",\"version\":\"1\"},\"token\":\"" + token + "\"}");
    JsonNode w = c.next();
    assertThat(w.path("type").asText()).as("welcome, got %s", w).isEqualTo("welcome");
    return c;
  }

  /** Connects with {@code hello.accept.binary_frames: true} and checks the welcome offers them. */
  static WireClient authenticatedBinary(int port, String token) {
    WireClient c = connect(port);
    c.send("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"test\",\"version\":\"1\"},\"accept\":"
        + "{\"binary_frames\":true},\"token\":\"" + token + "\"}");
    JsonNode w = c.next();
    assertThat(w.path("type").asText()).as("welcome, got %s", w).isEqualTo("welcome");
    assertThat(w.at("/capabilities/binary_frames").asBoolean()).isTrue();
    return c;
  }

  /**
   * The next message of a binary session: a schema-checked text message as {@link JsonNode}, or a
   * binary message as a decoded {@link BinaryFrame} whose JSON header was checked against its
   * schema definition ({@code BinaryFrameHeader} or {@code BinaryExecOutputHeader}); null when
   * nothing arrives within {@code timeoutMs}.
   */
  Object pollAny(long timeoutMs) {
    Object m;
    try {
      m = inbox.poll(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    if (m == null) {
      return null;
    }
    if (m instanceof byte[] bytes) {
      ByteBuffer b = ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      int headerLen = b.getInt();
      String header = new String(bytes, 4, headerLen, java.nio.charset.StandardCharsets.UTF_8);
      String def = WireCodec.parse(header).path("type").asText().equals("exec_output")
          ? "#/$defs/BinaryExecOutputHeader" : "#/$defs/BinaryFrameHeader";
      assertThat(WireContract.bundled().validate(def, header)).as("%s violations in %s", def, header).isEmpty();
      validated++;
      binaryFrames++;
      return BinaryFrames.decode(bytes);
    }
    String text = (String) m;
    assertThat(text).as("connection still open").isNotEqualTo(CLOSED);
    assertThat(WireContract.bundled().validate("#", text)).as("schema violations in %s", abbreviate(text))
        .isEmpty();
    validated++;
    return WireCodec.parse(text);
  }

  /** {@link #pollAny} that insists on a message. */
  Object nextAny() {
    Object m = pollAny(15_000);
    assertThat(m).as("a message within 15 s").isNotNull();
    return m;
  }

  /** Binary messages received so far. */
  int binaryFrames() {
    return binaryFrames;
  }

  void send(String text) {
    ws.sendText(text, true).join();
  }

  void sendBinary(byte[] data) {
    ws.sendBinary(ByteBuffer.wrap(data), true).join();
  }

  /** The next message, schema-checked. */
  JsonNode next() {
    return next(15_000);
  }

  JsonNode next(long timeoutMs) {
    String text;
    try {
      text = text(inbox.poll(timeoutMs, TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertThat(text).as("a message within %d ms", timeoutMs).isNotNull();
    assertThat(text).as("connection still open").isNotEqualTo(CLOSED);
    assertThat(WireContract.bundled().validate("#", text)).as("schema violations in %s", abbreviate(text))
        .isEmpty();
    validated++;
    return WireCodec.parse(text);
  }

  /** The next message within {@code timeoutMs}, schema-checked, or null when none arrives. */
  JsonNode poll(long timeoutMs) {
    String text;
    try {
      text = text(inbox.poll(timeoutMs, TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    if (text == null) {
      return null;
    }
    assertThat(text).as("connection still open").isNotEqualTo(CLOSED);
    assertThat(WireContract.bundled().validate("#", text)).as("schema violations in %s", abbreviate(text))
        .isEmpty();
    validated++;
    return WireCodec.parse(text);
  }

  /** Waits for the server to close the connection, with no further message before it. */
  void expectClosed() {
    String text;
    try {
      text = text(inbox.poll(10, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertThat(text).as("connection closed").isEqualTo(CLOSED);
  }

  int closeCode() {
    return listener.closeCode;
  }

  int validated() {
    return validated;
  }

  /** Round trip proving the session still answers. */
  void assertAlive() {
    send("{\"type\":\"ping\",\"t\":7}");
    JsonNode pong = next();
    assertThat(pong.path("type").asText()).as("pong, got %s", pong).isEqualTo("pong");
    assertThat(pong.path("t").asDouble()).isEqualTo(7.0);
  }

  /** Sends an action and returns the first reply. */
  JsonNode act(String callId, String actionJson) {
    send("{\"type\":\"action\",\"call_id\":\"" + callId + "\",\"action\":" + actionJson + "}");
    return next();
  }

  JsonNode query(String callId, String q) {
    send("{\"type\":\"query\",\"call_id\":\"" + callId + "\",\"q\":\"" + q + "\"}");
    return next();
  }

  /** A text message, or a failure naming the binary message that came instead. */
  private static String text(Object m) {
    if (m instanceof byte[] b) {
      throw new AssertionError("a binary message (" + b.length + " bytes) where text was expected");
    }
    return (String) m;
  }

  private static String abbreviate(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  @Override
  public void close() {
    try {
      ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(2, TimeUnit.SECONDS).join();
    } catch (RuntimeException ignored) {
      // already closed by the server
    }
    ws.abort();
  }

  private static final class Listener implements WebSocket.Listener {
    final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    volatile int closeCode = -1;
    private final StringBuilder partial = new StringBuilder();
    private final java.io.ByteArrayOutputStream partialBinary = new java.io.ByteArrayOutputStream();

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
      byte[] chunk = new byte[data.remaining()];
      data.get(chunk);
      partialBinary.writeBytes(chunk);
      if (last) {
        inbox.add(partialBinary.toByteArray());
        partialBinary.reset();
      }
      webSocket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        inbox.add(partial.toString());
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
      closeCode = statusCode;
      inbox.add(CLOSED);
      return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
      inbox.add(CLOSED);
    }
  }
}
