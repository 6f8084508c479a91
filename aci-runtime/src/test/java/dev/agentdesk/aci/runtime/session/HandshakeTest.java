package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.x11.TestWindows;
import dev.agentdesk.testkit.XvfbExtension;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Handshake, auth, origin check, queries and bad input against a running runtime on a real Xvfb. */
@ExtendWith(XvfbExtension.class)
class HandshakeTest {
  static final String TOKEN = "s3cret-token";
  @RegisterExtension
  static final RuntimeOnXvfb RT = RuntimeOnXvfb.with(d -> new AciRuntime.Options("127.0.0.1", 0, TOKEN, false,
      List.of("http://allowed.example"), d, new SessionLimits(Duration.ofMillis(800), Duration.ofSeconds(30),
          Duration.ofMinutes(5), SessionLimits.MAX_MESSAGE_BYTES), "test"));

  @Test
  void welcomeAdvertisesOnlyWhatWorks() {
    try (WireClient c = WireClient.connect(RT.runtime().port())) {
      c.send("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"t\",\"version\":\"1\"},\"token\":\"" + TOKEN + "\"}");
      JsonNode w = c.next();
      assertThat(w.path("type").asText()).isEqualTo("welcome");
      assertThat(w.at("/server/name").asText()).isEqualTo("agentdesk");
      assertThat(w.at("/server/platform").asText()).isEqualTo("linux");
      JsonNode caps = w.path("capabilities");
      List<String> verbs = new ArrayList<>();
      caps.path("verbs").forEach(v -> verbs.add(v.asText()));
      assertThat(verbs).containsExactly("click", "double_click", "right_click", "move", "drag", "mouse_down",
          "mouse_up", "scroll", "type_text", "key", "screenshot", "start_screencast",
          "stop_screencast", "wait", "observe", "invoke_action", "set_value",
          "clipboard_get", "clipboard_set", "launch_app", "activate_window");
      assertThat(verbs).doesNotContain("exec");
      assertThat(caps.path("image_formats").toString()).isEqualTo("[\"png\",\"jpeg\"]");
      assertThat(caps.path("frame_dedup").asBoolean()).isTrue();
      assertThat(caps.path("binary_frames").asBoolean()).isTrue();
      assertThat(caps.path("observe_after_act").asBoolean()).isTrue();
      assertThat(caps.path("structured_observation").asBoolean()).isTrue();
      assertThat(caps.path("max_long_edge").asInt()).isEqualTo(2576);
      assertThat(caps.path("targets").toString()).isEqualTo("[\"point_px\",\"point_norm\",\"element_ref\"]");
      // exec is off by default: asking for it is a policy error, not an unknown verb
      JsonNode nack = c.act("x1", "{\"verb\":\"exec\",\"argv\":[\"true\"]}");
      assertThat(nack.path("ok").asBoolean()).isFalse();
      assertThat(nack.path("error").asText()).isEqualTo("exec is disabled by server policy");
      c.assertAlive();
    }
  }

  @Test
  void wrongOrMissingTokenIsRefusedAndClosed() {
    for (String tokenPart : new String[] {",\"token\":\"nope\"", "", ",\"token\":\"" + TOKEN + "x\"",
        ",\"token\":\"\""}) {
      try (WireClient c = WireClient.connect(RT.runtime().port())) {
        c.send("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"t\",\"version\":\"1\"}" + tokenPart + "}");
        JsonNode r = c.next();
        assertThat(r.path("type").asText()).isEqualTo("result");
        assertThat(r.path("ok").asBoolean()).isFalse();
        assertThat(r.path("call_id").asText()).isEqualTo("?");
        assertThat(r.path("error").asText()).isEqualTo("authentication required: missing or invalid token");
        c.expectClosed();
      }
    }
  }

  @Test
  void nothingIsProcessedBeforeHello() {
    for (String first : new String[] {"{\"type\":\"ping\",\"t\":1}",
        "{\"type\":\"query\",\"call_id\":\"q\",\"q\":\"platform\"}",
        "{\"type\":\"action\",\"call_id\":\"a\",\"action\":{\"verb\":\"move\",\"target\":{\"kind\":\"point_px\",\"x\":5,\"y\":5}}}"}) {
      try (WireClient c = WireClient.connect(RT.runtime().port())) {
        c.send(first);
        JsonNode r = c.next();
        assertThat(r.path("error").asText()).isEqualTo("handshake required: the first message must be `hello`");
        c.expectClosed();
      }
    }
    try (WireClient c = WireClient.connect(RT.runtime().port())) {
      c.send("{\"type\":\"hello\",\"v\":1,\"client\":{\"name\":\"t\",\"version\":\"1\"},\"token\":\"" + TOKEN + "\"}");
      assertThat(c.next().path("error").asText()).isEqualTo("unsupported ACI version: 1 (this runtime speaks v0)");
      c.expectClosed();
    }
    try (WireClient c = WireClient.connect(RT.runtime().port())) {
      c.send("not json at all");
      assertThat(c.next().path("error").asText()).startsWith("bad message: ");
      c.expectClosed();
    }
  }

  @Test
  void handshakeTimesOut() {
    try (WireClient c = WireClient.connect(RT.runtime().port())) {
      JsonNode r = c.next(5000);
      assertThat(r.path("error").asText()).isEqualTo("handshake timeout");
      c.expectClosed();
    }
  }

  @Test
  void aSecondHelloIsRefusedButTheSessionStays() {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      c.send("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"t\",\"version\":\"1\"},\"token\":\"" + TOKEN + "\"}");
      JsonNode r = c.next();
      assertThat(r.path("error").asText()).isEqualTo("already authenticated");
      c.assertAlive();
      c.send("{\"type\":\"ping\"}");
      JsonNode pong = c.next();
      assertThat(pong.toString()).isEqualTo("{\"type\":\"pong\"}");
    }
  }

  @Test
  void queriesAnswerFromTheRealDisplay() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      JsonNode platform = c.query("q1", "platform");
      assertThat(platform.path("call_id").asText()).isEqualTo("q1");
      assertThat(platform.path("value").asText()).isEqualTo("linux");
      JsonNode size = c.query("q2", "screen_size");
      assertThat(size.path("value").toString()).isEqualTo("{\"w\":1280,\"h\":800}");
      JsonNode notReady = c.query("q3", "ready").path("value");
      assertThat(notReady.path("x11_up").asBoolean()).isTrue();
      assertThat(notReady.path("root_nonblack").asBoolean()).isFalse();
      assertThat(notReady.path("ready").asBoolean()).isFalse();
      long w = windows.create(600, 380, 100, 60, 0x336699, "Query me ✓", "QueryApp", 777);
      try {
        JsonNode ready = c.query("q4", "ready").path("value");
        assertThat(ready.path("ready").asBoolean()).isTrue();
        assertThat(ready.path("root_nonblack").asBoolean()).isTrue();
        JsonNode list = c.query("q5", "list_windows").path("value");
        JsonNode mine = null;
        for (JsonNode n : list) {
          if (n.path("id").asLong() == w) {
            mine = n;
          }
        }
        assertThat(mine).as("window %d in %s", w, list).isNotNull();
        assertThat(mine.path("title").asText()).isEqualTo("Query me ✓");
        assertThat(mine.path("class").asText()).isEqualTo("QueryApp");
        assertThat(mine.path("pid").asInt()).isEqualTo(777);
        assertThat(List.of(mine.path("x").asInt(), mine.path("y").asInt(), mine.path("w").asInt(),
            mine.path("h").asInt())).containsExactly(600, 380, 100, 60);
        assertThat(mine.path("focused").isBoolean()).isTrue();
      } finally {
        windows.destroy(w);
      }
      JsonNode unknown = c.query("q6", "battery");
      assertThat(unknown.path("call_id").asText()).isEqualTo("q6");
      assertThat(unknown.path("error").asText()).isEqualTo("unknown query: battery");
      c.assertAlive();
    }
  }

  @Test
  void everyBadInputGetsATypedErrorAndTheSessionLivesOn() {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      c.send("{\"type\":\"ping\",");
      assertThat(c.next().path("error").asText()).startsWith("bad message: malformed_json");
      c.assertAlive();
      c.send("[1,2,3]");
      assertThat(c.next().path("error").asText()).startsWith("bad message: ");
      c.assertAlive();
      c.send("{\"type\":\"teleport\",\"call_id\":\"t1\"}");
      JsonNode unknownType = c.next();
      assertThat(unknownType.path("error").asText()).isEqualTo("bad message: unknown message type \"teleport\"");
      assertThat(unknownType.path("call_id").asText()).isEqualTo("t1");
      c.assertAlive();
      c.send("{\"type\":\"query\",\"q\":\"platform\"}");
      assertThat(c.next().path("error").asText()).startsWith("bad message: missing_field");
      c.assertAlive();
      c.send("{\"type\":\"query\",\"call_id\":\"e1\",\"q\":\"platform\",\"extra\":true}");
      JsonNode extra = c.next();
      assertThat(extra.path("error").asText()).startsWith("bad message: unknown_field");
      assertThat(extra.path("call_id").asText()).isEqualTo("e1");
      c.assertAlive();
      JsonNode unknownVerb = c.act("v1", "{\"verb\":\"teleport\"}");
      assertThat(unknownVerb.path("type").asText()).isEqualTo("ack");
      assertThat(unknownVerb.path("error").asText()).isEqualTo("unknown verb: teleport");
      c.assertAlive();
      JsonNode badField = c.act("v2", "{\"verb\":\"move\",\"target\":{\"kind\":\"point_px\",\"x\":1,\"y\":2},\"bogus\":1}");
      assertThat(badField.path("error").asText()).startsWith("bad action: unknown_field at /action/bogus");
      c.assertAlive();
      JsonNode missing = c.act("v3", "{\"verb\":\"move\"}");
      assertThat(missing.path("error").asText()).isEqualTo("action requires a target");
      c.assertAlive();
      // 16 MiB: above the documented 8 MiB cap, below the transport's 64 MiB
      String huge = "{\"type\":\"ping\",\"pad\":\"" + "x".repeat(16 * 1024 * 1024) + "\"}";
      c.send(huge);
      assertThat(c.next().path("error").asText()).isEqualTo("bad message: message too large: "
          + huge.getBytes(StandardCharsets.UTF_8).length + " bytes (cap 8388608)");
      c.assertAlive();
      c.sendBinary(new byte[] {0, 1, 2, (byte) 0xFF, 42});
      assertThat(c.next().path("error").asText())
          .isEqualTo("bad message: binary frames are not accepted from clients (5 bytes ignored)");
      c.assertAlive();
      // client-side message types are ignored, as the reference does
      c.send("{\"type\":\"pong\",\"t\":3}");
      c.assertAlive();
    }
  }

  @Test
  void browserOriginsOutsideTheListGetHttp403() throws Exception {
    assertThat(upgrade("Origin: http://evil.example\r\n")).startsWith("HTTP/1.1 403")
        .contains("browser WebSocket origin is not allowed by --allowed-origin");
    assertThat(upgrade("Origin: http://allowed.example\r\nOrigin: http://evil.example\r\n")).startsWith("HTTP/1.1 403");
    assertThat(upgrade("Origin: http://allowed.example\r\n")).startsWith("HTTP/1.1 101");
    assertThat(upgrade("")).startsWith("HTTP/1.1 101");
  }

  private static String upgrade(String extraHeaders) throws Exception {
    try (Socket s = new Socket("127.0.0.1", RT.runtime().port())) {
      s.setSoTimeout(5000);
      OutputStream o = s.getOutputStream();
      o.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + RT.runtime().port() + "\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
          + extraHeaders + "\r\n").getBytes(StandardCharsets.US_ASCII));
      o.flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[4096];
      StringBuilder sb = new StringBuilder();
      long deadline = System.currentTimeMillis() + 3000;
      while (System.currentTimeMillis() < deadline) {
        int n;
        try {
          n = in.read(buf);
        } catch (java.net.SocketTimeoutException e) {
          break;
        }
        if (n < 0) {
          break;
        }
        sb.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        if (sb.toString().startsWith("HTTP/1.1 101") && sb.indexOf("\r\n\r\n") >= 0) {
          break;
        }
        if (sb.indexOf("\r\n\r\n") >= 0 && sb.indexOf(" 403") > 0 && sb.indexOf("origin") > 0) {
          break;
        }
      }
      return sb.toString();
    }
  }
}
