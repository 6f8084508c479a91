package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.atspi.AtspiDesktop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * observe / element_ref / invoke_action / set_value end to end: a WebSocket client drives the
 * runtime (X11 input + the AT-SPI engine) against a real zenity dialog on Xvfb with its own
 * session bus and accessibility bus.
 */
class StructuredProtocolTest {
  static final String TOKEN = "t0ken";
  static AtspiDesktop desktop;
  static AciRuntime runtime;

  @BeforeAll
  static void start() throws Exception {
    desktop = AtspiDesktop.start(1280, 800, true);
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(),
        desktop.display().name(), SessionLimits.defaults(), "test"), desktop.settings());
  }

  @AfterAll
  static void stop() {
    if (runtime != null) {
      runtime.close();
    }
    if (desktop != null) {
      desktop.close();
    }
  }

  static JsonNode element(JsonNode observation, String role, String name) {
    for (JsonNode e : observation.path("elements")) {
      if (e.path("role").asText().equals(role) && e.path("name").asText("").equals(name)) {
        return e;
      }
    }
    return null;
  }

  static String ref(String ref) {
    return "{\"kind\":\"element_ref\",\"ref\":\"" + ref + "\"}";
  }

  static void ok(JsonNode reply, String callId) {
    assertThat(reply.path("type").asText()).as("%s", reply).isEqualTo("ack");
    assertThat(reply.path("call_id").asText()).isEqualTo(callId);
    assertThat(reply.path("ok").asBoolean()).as("%s", reply).isTrue();
  }

  static void nack(JsonNode reply, String error) {
    assertThat(reply.path("ok").asBoolean()).as("%s", reply).isFalse();
    assertThat(reply.path("error").asText()).isEqualTo(error);
  }

  /**
   * One observe with settle_ms right after type_text sees every typed character: the quiet window
   * counts from the observe at the earliest, so keys the application has not read yet are waited
   * for (a window counted from the click's older events ended at once, on part of the text).
   */
  @Test
  void anObserveWithSettleRightAfterTypingSeesTheWholeText() throws Exception {
    AtspiDesktop.GuiApp app = desktop.launch("zenity", "--entry", "--title", "Typed", "--text", "Type here:");
    try (WireClient c = WireClient.connect(runtime.port())) {
      c.send("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"t\",\"version\":\"1\"},\"token\":\""
          + TOKEN + "\"}");
      c.next();
      String entry = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      for (int n = 0; entry == null && System.nanoTime() < deadline; n++) {
        JsonNode obs = c.act("o" + n, "{\"verb\":\"observe\"}");
        if (obs.path("tree_text").asText().contains("window: \"Typed\"")) {
          for (JsonNode e : obs.path("elements")) {
            if (e.path("role").asText().equals("text")) {
              entry = e.path("ref").asText();
            }
          }
        }
        if (entry == null) {
          Thread.sleep(100);
        }
      }
      assertThat(entry).as("zenity's entry").isNotNull();
      ok(c.act("c1", "{\"verb\":\"click\",\"target\":" + ref(entry) + "}"), "c1");
      StringBuilder typed = new StringBuilder();
      for (int round = 0; round < 5; round++) {
        String word = "agent-was-here-" + round;
        typed.append(word);
        ok(c.act("t" + round, "{\"verb\":\"type_text\",\"text\":\"" + word + "\"}"), "t" + round);
        JsonNode after = c.act("s" + round, "{\"verb\":\"observe\",\"settle_ms\":300}");
        String value = null;
        for (JsonNode e : after.path("elements")) {
          if (e.path("ref").asText().equals(entry)) {
            value = e.path("value").asText();
          }
        }
        assertThat(value).as("the entry in the one observe after typing round %d", round).isEqualTo(typed.toString());
      }
    } finally {
      app.process().destroy();
    }
  }

  @Test
  void observeThenActOnElementsOverTheWire() throws Exception {
    AtspiDesktop.GuiApp app = desktop.launch("zenity", "--entry", "--title", "Wire",
        "--text", "Over the wire:");
    try (WireClient c = WireClient.connect(runtime.port())) {
      c.send("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"t\",\"version\":\"1\"},\"token\":\""
          + TOKEN + "\"}");
      JsonNode caps = c.next().path("capabilities");
      assertThat(caps.path("structured_observation").asBoolean()).isTrue();
      List<String> verbs = new ArrayList<>();
      caps.path("verbs").forEach(v -> verbs.add(v.asText()));
      assertThat(verbs).contains("observe", "invoke_action", "set_value");
      assertThat(caps.path("targets").toString()).contains("\"element_ref\"");
      assertThat(caps.path("observation_types").toString()).contains("\"a11y\"");

      // Before any observe, a ref cannot resolve.
      nack(c.act("s0", "{\"verb\":\"click\",\"target\":" + ref("e1") + "}"),
          "stale_element_ref: no structured observation on this session yet"
              + " (send an `observe` action first)");

      JsonNode obs = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      int n = 0;
      while (System.nanoTime() < deadline) {
        obs = c.act("o" + n, "{\"verb\":\"observe\"}");
        assertThat(obs.path("type").asText()).as("%s", obs).isEqualTo("observation");
        assertThat(obs.path("obs_id").asText()).isEqualTo("obs-o" + n);
        assertThat(obs.path("cause").asText()).isEqualTo("o" + n);
        if (element(obs, "push button", "OK") != null) {
          break;
        }
        n++;
        Thread.sleep(100);
      }
      assertThat(obs.path("tree").asText()).isEqualTo("full");
      assertThat(obs.path("tree_text").asText()).startsWith("app: zenity | window: \"Wire\" (dialog)");
      JsonNode okButton = element(obs, "push button", "OK");
      assertThat(okButton).as(obs.path("tree_text").asText()).isNotNull();
      assertThat(okButton.path("source").asText()).isEqualTo("atspi");
      String ok = okButton.path("ref").asText();
      String entry = null;
      for (JsonNode e : obs.path("elements")) {
        if (e.path("role").asText().equals("text")) {
          entry = e.path("ref").asText();
        }
      }
      assertThat(entry).isNotNull();

      // A pointer verb at an element: XTEST click at the entry's centre, then real typing.
      ok(c.act("c1", "{\"verb\":\"click\",\"target\":" + ref(entry) + "}"), "c1");
      ok(c.act("t1", "{\"verb\":\"type_text\",\"text\":\"hi\"}"), "t1");
      JsonNode diff = null;
      for (int i = 0; i < 20; i++) {
        diff = c.act("d" + i, "{\"verb\":\"observe\",\"diff\":true,\"settle_ms\":150}");
        if (diff.path("tree_text").asText().contains("Value:\"hi\"")) {
          break;
        }
      }
      assertThat(diff.path("tree").asText()).isEqualTo("diff");
      assertThat(diff.path("diff_of").asLong()).isEqualTo(diff.path("revision").asLong() - 1);
      assertThat(diff.path("tree_text").asText())
          .contains("\n~ " + entry + " text (editable,focused) Value:\"hi\"");

      ok(c.act("v1", "{\"verb\":\"set_value\",\"target\":" + ref(entry) + ",\"text\":\"wire\"}"),
          "v1");
      JsonNode after = c.act("o-after", "{\"verb\":\"observe\",\"settle_ms\":100}");
      for (JsonNode e : after.path("elements")) {
        if (e.path("ref").asText().equals(entry)) {
          assertThat(e.path("value").asText()).isEqualTo("wire");
        }
      }

      // Bad input: the reference wording, and the session lives on.
      nack(c.act("b1", "{\"verb\":\"observe\",\"structured\":false}"),
          "observe structured:false is the pixel path \u2014 use `screenshot`");
      nack(c.act("b2", "{\"verb\":\"invoke_action\",\"target\":{\"kind\":\"point_px\",\"x\":1,\"y\":1}}"),
          "invoke_action requires an element_ref target");
      nack(c.act("b3", "{\"verb\":\"set_value\",\"target\":" + ref(entry) + "}"),
          "set_value requires `text` (the new value)");
      nack(c.act("b4", "{\"verb\":\"click\",\"target\":" + ref("zzz") + "}"),
          "stale_element_ref: malformed element_ref \"zzz\" (expected e<N>)");
      nack(c.act("b5", "{\"verb\":\"invoke_action\",\"target\":" + ref(ok) + ",\"text\":\"fly\"}"),
          "invoke_action " + ok + " failed: no action named \"fly\" (available: Click)");

      ok(c.act("i1", "{\"verb\":\"invoke_action\",\"target\":" + ref(ok) + "}"), "i1");
      assertThat(app.waitForExit(10, TimeUnit.SECONDS)).isTrue();
      assertThat(app.stdout()).isEqualTo("wire\n");
      nack(c.act("i2", "{\"verb\":\"invoke_action\",\"target\":" + ref(ok) + "}"),
          "stale_element_ref: " + ok + " is not in the live tree (it disappeared or was never"
              + " minted) \u2014 re-observe and retry");
      c.assertAlive();
    } finally {
      app.process().destroy();
    }
  }
}
