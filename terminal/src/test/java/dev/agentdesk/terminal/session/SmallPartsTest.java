package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.terminal.parser.Agent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Agent detection, key names, hook marker fields. */
class SmallPartsTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "claude --resume abc | CLAUDE",
      "/usr/local/bin/codex exec | CODEX",
      "npx @anthropic-ai/claude-code | CLAUDE",
      "npx -y @google/gemini-cli | GEMINI",
      "env FOO=1 aider --model x | AIDER",
      "node /usr/lib/node_modules/@openai/codex/bin/codex.js | CODEX",
      "copilot | COPILOT",
      "opencode run | OPENCODE",
      "goose session | GOOSE",
      "bash -c claude --continue | CLAUDE",
      "uvx --from aider-chat aider | AIDER",
      "bash | NONE",
      "vim claude.md | NONE",
      "python3 manage.py runserver | NONE",
      "ls -la | NONE"})
  void agentIsDetectedFromArgv(String argv, Agent expected) {
    List<String> args = argv.startsWith("bash -c ")
        ? List.of("bash", "-c", argv.substring("bash -c ".length()))
        : List.of(argv.split(" "));
    assertThat(AgentDetector.detect(args)).isEqualTo(expected);
  }

  @Test
  void explicitAgentNamesAreCheckedWithATypedError() {
    assertThat(AgentDetector.named("Claude")).isEqualTo(Agent.CLAUDE);
    assertThat(AgentDetector.named("none")).isEqualTo(Agent.NONE);
    assertThatThrownBy(() -> AgentDetector.named("cursor"))
        .isInstanceOfSatisfying(SessionException.class, e -> {
          assertThat(e.reason()).isEqualTo(SessionException.Reason.UNKNOWN_AGENT);
          assertThat(e.getMessage()).contains("claude|codex|aider|gemini|copilot|opencode|pi|goose|none");
        });
  }

  @Test
  void keyNamesAndTheirBytes() {
    assertThat(Key.named("enter").bytes()).containsExactly('\r');
    assertThat(Key.named("Esc").bytes()).containsExactly(0x1b);
    assertThat(Key.named("ctrl-c").bytes()).containsExactly(3);
    assertThat(Key.named("ctrl+c")).isEqualTo(Key.CTRL_C);
    assertThat(Key.named("shift-tab").bytes()).containsExactly(0x1b, '[', 'Z');
    assertThat(Key.named("page_down")).isEqualTo(Key.PAGE_DOWN);
    assertThatThrownBy(() -> Key.named("hyper")).isInstanceOfSatisfying(SessionException.class,
        e -> assertThat(e.reason()).isEqualTo(SessionException.Reason.UNKNOWN_KEY));
  }

  @Test
  void hookMarkerFieldsAreReadAndBadValuesReportedNotThrown() {
    HookMarker m = HookMarker.of(Map.of("state", "Awaiting", "question", "Ship%3B now?",
        "intent", "Reading the auth module (Auth review)", "suggest", "Run tests| Review diff |"));
    assertThat(m.state()).contains(HookMarker.State.AWAITING);
    assertThat(m.question()).isEqualTo("Ship; now?");
    assertThat(m.intent()).isEqualTo("Reading the auth module");
    assertThat(m.intentTitle()).isEqualTo("Auth review");
    assertThat(m.suggest()).containsExactly("Run tests", "Review diff");
    assertThat(m.block()).isFalse();

    HookMarker bad = HookMarker.of(Map.of("state", "sleeping", "block", ""));
    assertThat(bad.state()).isEmpty();
    assertThat(bad.problems()).singleElement().asString().contains("sleeping");
    assertThat(bad.block()).isTrue();
  }

  @Test
  void timingRejectsNonsense() {
    assertThatThrownBy(() -> SessionTiming.defaults().withIdle(0, 100)).isInstanceOf(SessionException.class);
    assertThat(SessionTiming.defaults().idleMsFor(Agent.NONE)).isEqualTo(500);
    assertThat(SessionTiming.defaults().idleMsFor(Agent.GOOSE)).isEqualTo(2_500);
  }
}
