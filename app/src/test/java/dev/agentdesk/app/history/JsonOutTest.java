package dev.agentdesk.app.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The short reports' JSON writer gives the mapper's text for every kind of value they put in a tree. */
class JsonOutTest {
  @Test
  void writesWhatTheMapperWrites() throws Exception {
    ObjectNode o = JsonOut.object();
    o.put("text", "quote \" backslash \\ tab \t newline \n control \u0001 emoji 🦀 é");
    o.put("int", 7).put("long", Long.MIN_VALUE).put("double", 0.1 + 0.2).put("tiny", 1e-9).put("big", 1.5e300)
        .put("whole", 3.0).put("negative zero", -0.0).put("true", true).putNull("null");
    o.put("float", 0.1f);
    o.put("decimal", new java.math.BigDecimal("12.3400"));
    o.putArray("empty");
    o.putObject("nested").putArray("rows").addObject().put("key", "2026-02-11").putArray("models").add("m").addNull()
        .add(2.5);
    assertThat(JsonOut.write(o)).isEqualTo(new ObjectMapper().writeValueAsString(o));
    assertThat(JsonOut.write(JsonOut.array())).isEqualTo("[]");
  }
}
