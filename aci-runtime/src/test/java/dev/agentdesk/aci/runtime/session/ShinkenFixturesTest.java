package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.testkit.SharedCorpus;
import dev.agentdesk.testkit.XvfbExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A peer's contract fixtures (Shinken's SDK tests, read from ../shared) sent to the running
 * runtime: every invalid action, query or ping gets a typed error and the session lives on; every
 * valid one is accepted as well-formed — it may fail for the environment, never as invalid.
 */
@ExtendWith(XvfbExtension.class)
class ShinkenFixturesTest {
  static final String TOKEN = "fixtures";
  static final List<String> INVALID_PREFIXES = List.of("bad action:", "bad message:", "unknown verb:",
      "unknown query:");
  @RegisterExtension
  static final RuntimeOnXvfb RT = RuntimeOnXvfb.withToken(TOKEN, true);

  record Case(int index, boolean valid, String reason, ObjectNode message) {}

  static List<Case> cases() throws Exception {
    Path file = SharedCorpus.require("corpus/aci/shinken-contract-fixtures.json");
    JsonNode all = new ObjectMapper().readTree(file.toFile());
    List<Case> out = new ArrayList<>();
    int i = 0;
    for (JsonNode f : all) {
      i++;
      String against = f.path("validate_against").asText();
      JsonNode m = f.path("message");
      ObjectNode msg;
      if (against.equals("#/$defs/Action")) {
        msg = new ObjectMapper().createObjectNode();
        msg.put("type", "action");
        msg.set("action", m);
      } else if (against.equals("#") && m.isObject()
          && List.of("action", "query", "ping").contains(m.path("type").asText())) {
        msg = (ObjectNode) m.deepCopy();
      } else {
        continue;
      }
      // unique call ids so that every reply can be matched to its case
      if (!msg.path("type").asText().equals("ping") && (msg.has("call_id") || against.equals("#/$defs/Action"))
          && (msg.path("call_id").isTextual() || !msg.has("call_id"))) {
        msg.put("call_id", "fx" + i);
      }
      out.add(new Case(i, f.path("expect").asText().equals("valid"), f.path("reason").asText(), msg));
    }
    return out;
  }

  private static JsonNode next(WireClient c, Case k) {
    try {
      return c.next();
    } catch (AssertionError e) {
      throw new AssertionError("while answering case " + k.index() + " " + k.message() + ": " + e.getMessage(), e);
    }
  }

  @Test
  void everyFixtureIsAnsweredAsTheContractSays() throws Exception {
    List<Case> cases = cases();
    assertThat(cases.stream().filter(c -> c.message().path("type").asText().equals("action")).count())
        .as("action fixtures found").isGreaterThan(130);
    int valid = 0;
    int invalid = 0;
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      long pingT = 1000;
      for (Case k : cases) {
        c.send(k.message().toString());
        String callId = k.message().path("call_id").isTextual() ? k.message().get("call_id").asText() : "?";
        boolean isPing = k.message().path("type").asText().equals("ping");
        JsonNode reply = null;
        // read until this case's reply (pong for a ping); other traffic (late wait acks, exec events) is skipped
        for (int n = 0; n < 200 && reply == null; n++) {
          JsonNode m = next(c, k);
          String type = m.path("type").asText();
          if (isPing ? type.equals("pong") || (type.equals("result") && m.path("call_id").asText().equals("?"))
              : m.path("call_id").asText().equals(callId)
                  || (type.equals("observation") && m.path("cause").asText().equals(callId))) {
            reply = m;
          }
        }
        assertThat(reply).as("reply to case %d (%s): %s", k.index(), k.reason(), k.message()).isNotNull();
        String error = reply.path("ok").isBoolean() && !reply.path("ok").asBoolean() ? reply.path("error").asText() : null;
        if (k.valid()) {
          valid++;
          if (error != null) {
            assertThat(INVALID_PREFIXES).as("case %d %s answered %s", k.index(), k.message(), error)
                .noneMatch(error::startsWith);
            assertThat(error).as("case %d", k.index()).doesNotStartWith("internal error");
          }
        } else {
          invalid++;
          assertThat(error).as("case %d (%s) %s must be refused, got %s", k.index(), k.reason(), k.message(), reply)
              .isNotNull().isNotBlank().doesNotStartWith("internal error");
        }
        // the session lives on after every case
        c.send("{\"type\":\"ping\",\"t\":" + (++pingT) + "}");
        JsonNode pong = null;
        for (int n = 0; n < 200 && pong == null; n++) {
          JsonNode m = next(c, k);
          if (m.path("type").asText().equals("pong") && m.path("t").asLong() == pingT) {
            pong = m;
          }
        }
        assertThat(pong).as("alive after case %d", k.index()).isNotNull();
      }
      assertThat(c.validated()).isGreaterThan(2 * cases.size());
    }
    assertThat(valid).isGreaterThan(60);
    assertThat(invalid).isGreaterThan(60);
  }
}
