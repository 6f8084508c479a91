package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ParsedEvent;
import org.junit.jupiter.api.Test;

/** OSC 777 questions in a real PTY: confident ones are sticky; low-confidence ones are retracted. */
class NotificationScenarioTest {

  @Test
  void aPermissionRequestIsConfidentAndOnlyTheAnswerClearsIt() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "permission")) {
      a.awaitScreen("Bash(rm -rf build/)");
      SessionState s = a.awaitState(SessionState::awaitingInput, "awaiting");
      assertThat(s.questionConfident()).isTrue();
      assertThat(s.question()).isEqualTo("Claude needs your permission to use Bash");
      a.advance(60_000);
      assertThat(a.state().awaitingInput()).as("no retraction for a confident question").isTrue();
      assertThat(a.parsed(ParsedEvent.QuestionCleared.class)).isEmpty();
      a.typeLine("1");
      assertThat(a.state().awaitingInput()).isFalse();
      a.awaitScreen("Removed build/.");
    }
  }

  @Test
  void waitingForInputIsLowConfidenceAndRetractedWhenTheScreenShowsNoPrompt() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "waiting")) {
      a.awaitScreen("All tests pass.");
      SessionState s = a.awaitState(SessionState::awaitingInput, "awaiting");
      assertThat(s.questionConfident()).isFalse();
      a.advance(9_999);
      assertThat(a.state().awaitingInput()).isTrue();
      a.advance(1);
      assertThat(a.state().awaitingInput()).as("quiet screen without a prompt retracts it").isFalse();
      assertThat(a.parsed(ParsedEvent.QuestionCleared.class)).hasSize(1);
      assertThat(a.state().turnEpoch()).isZero();
    }
  }

  @Test
  void genericAttentionNotificationIsNoQuestion() throws Exception {
    String script = "printf '\\033]777;notify;Claude Code;Claude Code needs your attention\\007done\\r\\n'; read x";
    try (StandIn a = StandIn.start(SessionSpec.of("bash", "-c", script).withAgent(Agent.CLAUDE))) {
      a.awaitScreen("done");
      a.advance(30_000);
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(a.parsed(ParsedEvent.Question.class)).isEmpty();
    }
  }
}
