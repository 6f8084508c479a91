package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ParsedEvent;
import org.junit.jupiter.api.Test;

/**
 * Turn epochs with the Codex stand-in in a real PTY: a submitted line answers the question, and
 * Codex's repaint of the conversation (the old question is on screen again, now in a newer turn)
 * must not set awaiting again.
 */
class CodexTurnScenarioTest {
  private static final String QUESTION = "Which database should the migration target, Postgres or SQLite?";

  @Test
  void aQuestionFromAnOlderTurnRepaintedAfterTheAnswerDoesNotSetAwaiting() throws Exception {
    try (StandIn a = StandIn.start(Agent.CODEX, "codex.sh", "question")) {
      a.awaitScreen(QUESTION);
      a.advance(10_000);
      assertThat(a.state().awaitingInput()).isTrue();
      assertThat(a.state().question()).isEqualTo(QUESTION);

      a.typeLine("Postgres");
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(a.state().turnEpoch()).isEqualTo(1);
      a.awaitScreen("Migration written for Postgres.");
      a.advance(10_000);
      a.advance(10_000);
      assertThat(a.state().awaitingInput()).as("historical question repaint").isFalse();
      assertThat(a.state().busy()).as("completion").isFalse();
    }
  }

  @Test
  void typedTextEchoedByTheTerminalIsNotAQuestion() throws Exception {
    // A cooked-mode program: the terminal echoes what the user types, '?' and all. After a second
    // line it prints the first one itself, which is real output and may be a question.
    String script = "read -r line; read -r go; printf '%s\\n' \"$line\"; read -r end";
    try (StandIn a = StandIn.start(SessionSpec.of("bash", "-c", script).withAgent(Agent.NONE))) {
      a.session.write("is this echo a question?");
      a.awaitScreen("is this echo a question?");
      a.advance(10_000);
      a.advance(10_000);
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(a.parsed(ParsedEvent.Question.class)).isEmpty();
      assertThat(a.state().busy()).as("an echo is not output from the program").isFalse();

      a.session.sendKey(Key.ENTER);
      a.advance(1_000);
      a.typeLine("go");
      a.awaitScreen("go\nis this echo a question?");
      assertThat(a.state().busy()).isTrue();
      a.advance(10_000);
      assertThat(a.parsed(ParsedEvent.Question.class)).as("control: the same line printed by the program")
          .containsExactly(new ParsedEvent.Question("is this echo a question?", false, 2));
      assertThat(a.state().awaitingInput()).isTrue();
    }
  }
}
