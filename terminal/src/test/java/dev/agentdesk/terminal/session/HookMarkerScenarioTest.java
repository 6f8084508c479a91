package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ParsedEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OSC 7770 hook markers from a real PTY drive busy, awaiting and idle, and silence questions stop. */
class HookMarkerScenarioTest {

  @Test
  void hookMarkersDriveTheStateAndSuppressHeuristicQuestions() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "hooks")) {
      a.awaitScreen("Is the token refresh racing with logout?");
      SessionState s = a.state();
      assertThat(s.hookInstrumented()).isTrue();
      assertThat(s.busy()).isTrue();
      assertThat(s.intent()).isEqualTo("Reading the auth module");
      assertThat(s.intentTitle()).isEqualTo("Auth review");

      a.advance(60_000);
      assertThat(a.state().busy()).as("hook busy wins over silence").isTrue();
      assertThat(a.state().awaitingInput()).as("heuristic questions are suppressed once a state= marker was seen")
          .isFalse();
      assertThat(a.parsed(ParsedEvent.Question.class)).isEmpty();

      a.typeLine("go on");
      a.awaitScreen("Deploy to staging now?");
      s = a.awaitState(SessionState::awaitingInput, "awaiting from the hook");
      assertThat(s.questionConfident()).isTrue();
      assertThat(s.question()).isEqualTo("Deploy to staging now?");
      a.advance(60_000);
      assertThat(a.state().awaitingInput()).isTrue();

      a.typeLine("yes");
      assertThat(a.state().awaitingInput()).isFalse();
      a.awaitScreen("Deployed.");
      s = a.awaitState(st -> !st.suggestions().isEmpty(), "suggestions");
      assertThat(s.suggestions()).containsExactly("Run smoke tests", "Open the dashboard", "Roll back");
      a.advance(3_000);
      assertThat(a.state().busy()).as("hook idle ends busy").isFalse();

      a.typeLine("more");
      a.awaitScreen("Stopping early.");
      s = a.awaitState(st -> st.suggestions().isEmpty() && st.busy(), "blocked stop");
      a.advance(60_000);
      assertThat(a.state().busy()).as("a blocked Stop hook keeps the turn open").isTrue();
    }
  }

  @Test
  void aConfirmedInterruptedScreenEndsHookBusy() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "interrupt")) {
      a.awaitScreen("Refactoring");
      a.awaitState(SessionState::hookInstrumented, "hook seen");
      a.advance(30_000);
      assertThat(a.state().busy()).isTrue();
      a.session.sendKey(Key.ENTER);
      a.awaitScreen("Interrupted · What should Claude do instead?");
      a.advance(2_499);
      assertThat(a.state().busy()).isTrue();
      a.advance(1);
      assertThat(a.state().busy()).isFalse();
    }
  }

  @Test
  void exitEndsHookBusy() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "interrupt")) {
      a.awaitState(SessionState::hookInstrumented, "hook seen");
      a.session.kill();
      a.session.waitFor();
      assertThat(a.state().busy()).isFalse();
      List<ParsedEvent> shell = a.parsed(ParsedEvent.ShellState.class);
      assertThat(shell).last().isEqualTo(new ParsedEvent.ShellState(dev.agentdesk.terminal.parser.ShellActivity.IDLE));
    }
  }
}
