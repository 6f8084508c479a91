package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ParsedEvent;
import org.junit.jupiter.api.Test;

/** The choice_prompt lifecycle in a real PTY: set, then cleared by resolution, disappearance, replacement, exit. */
class ChoicePromptScenarioTest {

  @Test
  void aMenuSetsTheChoiceAndTheOneKeyAnswerResolvesIt() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "choice")) {
      a.awaitSettled("Esc to cancel · Tab to amend");
      SessionState s = a.awaitState(st -> st.choicePrompt() != null, "a choice prompt");
      assertThat(s.awaitingInput()).isTrue();
      assertThat(s.choicePrompt().title()).isEqualTo("Do you want to make this edit to parser.rs?");
      assertThat(s.choicePrompt().options()).extracting(PendingChoice.Option::index).containsExactly(1, 2, 3);
      assertThat(s.choicePrompt().options().get(2).destructive()).isTrue();
      assertThat(s.choicePrompt().dismissKey()).isEqualTo("cancel");
      assertThat(s.choicePrompt().amendKey()).isEqualTo("amend");

      a.session.write("1");
      assertThat(a.state().choicePrompt()).isNull();
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(a.parsed(ParsedEvent.ChoiceCleared.class)).hasSize(1);
      a.awaitScreen("Answered 1. Applying the edit.");
      a.advance(20_000);
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(a.parsed(ParsedEvent.ChoiceCleared.class)).as("resolution is reported once").hasSize(1);
    }
  }

  @Test
  void aMenuThatDisappearsWithoutAnAnswerIsCleared() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "choice-vanish")) {
      a.awaitSettled("Esc to cancel · Tab to amend");
      a.awaitParsed(ParsedEvent.ChoicePrompt.class);
      assertThat(a.state().awaitingInput()).isTrue();
      a.nudge();
      a.awaitScreen("The PreToolUse hook denied the command");
      a.awaitParsed(ParsedEvent.ChoiceCleared.class);
      SessionState s = a.state();
      assertThat(s.choicePrompt()).isNull();
      assertThat(s.awaitingInput()).isFalse();
      assertThat(s.turnEpoch()).as("no input was involved").isZero();
    }
  }

  @Test
  void aMenuReplacedByAnotherIsClearedThenReplaced() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "choice-replace")) {
      a.awaitSettled("Esc to cancel · Tab to amend");
      a.awaitState(st -> st.choicePrompt() != null, "the first menu");
      a.nudge();
      a.awaitSettled("edit to b.rs?");
      SessionState s = a.awaitState(st -> st.choicePrompt() != null && st.choicePrompt().title().contains("b.rs"),
          "the second menu");
      assertThat(s.awaitingInput()).isTrue();
      assertThat(a.parsed(ParsedEvent.ChoicePrompt.class)).extracting(e -> ((ParsedEvent.ChoicePrompt) e).title())
          .containsSubsequence("Do you want to make this edit to a.rs?", "Do you want to make this edit to b.rs?")
          .last().isEqualTo("Do you want to make this edit to b.rs?");
      assertThat(a.parsed(ParsedEvent.ChoiceCleared.class)).as("the replaced menu is reported cleared").hasSize(1);
    }
  }

  @Test
  void exitWithAMenuOnScreenClearsIt() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "choice")) {
      a.awaitSettled("Esc to cancel · Tab to amend");
      a.awaitState(st -> st.choicePrompt() != null, "a choice prompt");
      a.session.kill();
      a.session.waitFor();
      SessionState s = a.state();
      assertThat(s.choicePrompt()).isNull();
      assertThat(s.awaitingInput()).isFalse();
      assertThat(s.exited()).isTrue();
      assertThat(a.parsed(ParsedEvent.ChoiceCleared.class)).hasSize(1);
    }
  }

  @Test
  void codexApprovalMenuIsResolvedByABareEnter() throws Exception {
    try (StandIn a = StandIn.start(Agent.CODEX, "codex.sh", "approval")) {
      a.awaitSettled("Press enter to confirm or esc to cancel");
      SessionState s = a.awaitState(st -> st.choicePrompt() != null, "the approval menu");
      assertThat(s.choicePrompt().title()).isEqualTo("Would you like to make the following edits?");
      a.session.sendKey(Key.ENTER);
      assertThat(a.state().choicePrompt()).isNull();
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(a.state().turnEpoch()).isEqualTo(1);
      a.awaitScreen("Edited src/db.rs");
      a.advance(20_000);
      assertThat(a.state().awaitingInput()).isFalse();
    }
  }
}
