package dev.agentdesk.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Argument checks: each bad value is a bad_arguments error that names the tool and the argument. */
class ArgsTest {
  static Args args(Map<String, Object> values) {
    return new Args("t", values, Set.of("q", "n", "flag", "argv", "by"));
  }

  @Test
  void readsWhatTheSchemaAllows() {
    Args a = args(Map.of("q", "x", "n", 5, "flag", true, "argv", List.of("ls", "-l"), "by", "day"));
    assertThat(a.string("q")).isEqualTo("x");
    assertThat(a.optInt("n", 1, 10)).isEqualTo(5);
    assertThat(a.intOr("missing-is-default", 1, 10, 7)).isEqualTo(7);
    assertThat(a.flag("flag")).isTrue();
    assertThat(a.strings("argv", true)).containsExactly("ls", "-l");
    assertThat(a.choice("by", List.of("day", "model"), "model")).isEqualTo("day");
    assertThat(args(Map.of()).choice("by", List.of("day", "model"), "model")).isEqualTo("model");
    assertThat(args(Map.of("n", 3.0)).optInt("n", 1, 10)).as("a whole number sent as 3.0").isEqualTo(3);
  }

  @Test
  void badValuesSayWhatIsWrong() {
    assertBad(() -> new Args("t", Map.of("limt", 1), Set.of("limit")), "t: unknown argument 'limt'; it takes limit");
    assertBad(() -> new Args("t", Map.of("x", 1), Set.of()), "(this tool takes none)");
    assertBad(() -> args(Map.of()).string("q"), "t: q is required");
    assertBad(() -> args(Map.of("q", 3)).string("q"), "q must be a string, got 3");
    assertBad(() -> args(Map.of("n", "ten")).optInt("n", 1, 10), "n must be a whole number, got the string 'ten'");
    assertBad(() -> args(Map.of("n", 2.5)).optInt("n", 1, 10), "n must be a whole number, got 2.5");
    assertBad(() -> args(Map.of("n", 11)).optInt("n", 1, 10), "n must be between 1 and 10, got 11");
    assertBad(() -> args(Map.of("flag", "yes")).flag("flag"), "flag must be true or false");
    assertBad(() -> args(Map.of("argv", List.of())).strings("argv", true), "argv must name a program first");
    assertBad(() -> args(Map.of("argv", List.of("ls", 3))).strings("argv", true), "argv must contain only strings");
    assertBad(() -> args(Map.of("by", "week")).choice("by", List.of("day", "model"), null),
        "by must be one of day, model, got 'week'");
  }

  static void assertBad(Runnable r, String message) {
    assertThatThrownBy(r::run).isInstanceOf(PortException.class).hasMessageContaining(message)
        .satisfies(e -> assertThat(((PortException) e).reason()).isEqualTo(PortException.Reason.BAD_ARGUMENTS));
  }

  @Test
  void nullFieldsAreDroppedAtEveryDepth() throws Exception {
    JsonNode in = Jsons.MAPPER.readTree("{\"a\":null,\"b\":{\"c\":null,\"d\":1},\"e\":[null,{\"f\":null}]}");
    assertThat(Jsons.withoutNulls(in).toString()).isEqualTo("{\"b\":{\"d\":1},\"e\":[{}]}");
  }

  @Test
  void theToolTableIsTheIssuesList() {
    assertThat(AgentdeskMcp.toolNames()).containsExactly("history_search", "history_session", "history_usage", "history_limits",
        "history_sessions", "terminal_list", "terminal_read", "terminal_send", "terminal_start", "agent_list",
        "agent_start", "agent_diff", "sandbox_list", "sandbox_screenshot", "sandbox_act", "sandbox_observe",
        "sandbox_exec");
    assertThat(AgentdeskMcp.controlToolNames()).containsExactly("terminal_send", "terminal_start", "agent_start",
        "sandbox_act", "sandbox_exec");
  }
}
