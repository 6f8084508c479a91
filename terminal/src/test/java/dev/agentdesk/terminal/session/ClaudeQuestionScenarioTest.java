package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ParsedEvent;
import org.junit.jupiter.api.Test;

class ClaudeQuestionScenarioTest {
  @Test
  void silenceQuestionSetsAwaitingAndTheSubmittedAnswerClearsIt() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "question")) {
      a.awaitScreen("Should I keep the old API as a deprecated alias?");
      assertThat(a.state().busy()).isTrue();
      a.advance(2_500);
      assertThat(a.state().busy()).isFalse();
      assertThat(a.state().awaitingInput()).isFalse();
      a.advance(7_500);
      System.out.println(a.rec.events());
      System.out.println(a.session.screen().text());
      SessionState s = a.state();
      assertThat(s.awaitingInput()).isTrue();
      assertThat(s.question()).isEqualTo("Should I keep the old API as a deprecated alias?");
    }
  }
}
