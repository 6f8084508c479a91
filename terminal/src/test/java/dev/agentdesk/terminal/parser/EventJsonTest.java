package dev.agentdesk.terminal.parser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class EventJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One instance of every event kind. */
  static final List<ParsedEvent> ALL = List.of(
      new ParsedEvent.RateLimit("claude_rate_limit", "API Error: 429", 30_000L),
      new ParsedEvent.StatusLine("Working", "• Working (4s • esc to interrupt)", "4s", null),
      new ParsedEvent.PrUrl(42, "https://github.com/a/b/pull/42", Platform.GITHUB),
      new ParsedEvent.Progress(1, 50),
      new ParsedEvent.Question("Claude needs your permission to use Bash", true, 3),
      new ParsedEvent.QuestionCleared(3),
      new ParsedEvent.ApiError("claude-api-error", "API Error: 529", ErrorKind.SERVER),
      new ParsedEvent.Intent("Reading auth", "Auth review"),
      new ParsedEvent.PlanFile("/home/me/.claude/plans/x.md"),
      new ParsedEvent.Suggest(List.of("Run tests", "Deploy")),
      new ParsedEvent.UsageLimit(85, LimitType.WEEKLY),
      new ParsedEvent.UsageExhausted("8pm (Europe/Madrid)"),
      new ParsedEvent.ActiveSubtasks(2, "local agents"),
      new ParsedEvent.ShellState(ShellActivity.IDLE),
      new ParsedEvent.AgentSessionConflict("Session ID x is already in use.", ConflictKind.IN_USE),
      new ParsedEvent.ChoicePrompt("Do you want to proceed?", List.of(new ParsedEvent.ChoiceOption(1, "Yes", true, false, null),
          new ParsedEvent.ChoiceOption(2, "No", false, true, "esc")), "cancel", "amend"),
      new ParsedEvent.ChoiceCleared(),
      new ParsedEvent.SlashMenu(List.of(new ParsedEvent.SlashMenuItem("/clear", false), new ParsedEvent.SlashMenuItem("/compact", true))));

  @Test
  void usageLimitMatchesTheIssueExample() {
    assertThat(EventJson.toJson(new ParsedEvent.UsageLimit(85, LimitType.WEEKLY)))
        .isEqualTo("{\"type\":\"usage-limit\",\"percentage\":85,\"limit_type\":\"weekly\"}");
  }

  @Test
  void everyKindHasItsKebabTypeAndSnakeCaseFields() throws Exception {
    Set<String> types = new TreeSet<>();
    for (ParsedEvent e : ALL) {
      JsonNode n = JSON.readTree(EventJson.toJson(e, 1234));
      assertThat(n.get("type").asText()).isEqualTo(e.type()).matches("[a-z]+(-[a-z]+)*");
      assertThat(n.get("at_ms").asLong()).isEqualTo(1234);
      List<String> keys = new ArrayList<>();
      for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
        keys.add(it.next());
      }
      assertThat(keys).first().isEqualTo("type");
      assertThat(keys).allMatch(k -> k.matches("_?[a-z]+(_[a-z]+)*"), "snake_case keys");
      types.add(e.type());
    }
    assertThat(types).containsExactlyInAnyOrder("rate-limit", "status-line", "pr-url", "progress", "question",
        "question-cleared", "api-error", "intent", "plan-file", "suggest", "usage-limit", "usage-exhausted",
        "active-subtasks", "shell-state", "agent-session-conflict", "choice-prompt", "choice-cleared", "slash-menu");
  }

  @Test
  void choicePromptOptionsCarryIndexLabelDestructive() throws Exception {
    JsonNode n = JSON.readTree(EventJson.toJson(ALL.get(15)));
    assertThat(n.get("options").get(1).get("index").asInt()).isEqualTo(2);
    assertThat(n.get("options").get(1).get("label").asText()).isEqualTo("No");
    assertThat(n.get("options").get(1).get("destructive").asBoolean()).isTrue();
    assertThat(n.get("dismiss_key").asText()).isEqualTo("cancel");
  }

  @Test
  void recordsRejectImpossibleValues() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ParsedEvent.Progress(5, 0)).isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ParsedEvent.UsageLimit(101, LimitType.SESSION))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ParsedEvent.Suggest(List.of("a")))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ParsedEvent.PrUrl(0, "u", Platform.GITHUB))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
