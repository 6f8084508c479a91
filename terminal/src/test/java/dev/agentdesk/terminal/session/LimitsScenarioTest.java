package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import org.junit.jupiter.api.Test;

/** Rate limits, usage, sub-tasks, PR URLs and API errors from a real PTY reach the session state. */
class LimitsScenarioTest {

  @Test
  void limitsUsageSubtasksPullRequestsAndErrorsAreTracked() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "limits")) {
      a.awaitScreen("pull/42");
      SessionState s = a.awaitState(st -> st.lastApiError() != null && st.prUrls().size() == 1, "all lines parsed");
      long t0 = a.clock.nowMillis();
      assertThat(s.activeSubtasks()).isEqualTo(2);
      assertThat(s.rateLimitedUntilMs()).isEqualTo(t0 + 30_000);
      assertThat(s.rateLimitedAt(t0)).isTrue();
      assertThat(s.usagePercentage()).isEqualTo(85);
      assertThat(s.usageLimitType()).isEqualTo("weekly");
      assertThat(s.prUrls()).containsExactly("https://github.com/acme/widgets/pull/42");
      assertThat(s.lastApiErrorKind()).isEqualTo("server");

      a.advance(10_000);
      assertThat(a.state().busy()).as("idle is held back while sub-tasks run").isTrue();
      a.advance(20_000);
      assertThat(a.state().rateLimitedUntilMs()).as("the limit ran out").isNull();

      a.typeLine("");
      a.awaitScreen("out of extra usage");
      s = a.awaitState(st -> st.usageExhausted() && st.activeSubtasks() == 0, "exhausted, no sub-tasks");
      assertThat(s.usageResetText()).isEqualTo("8pm (Europe/Madrid)");
      a.advance(2_500);
      assertThat(a.state().busy()).as("idle once the last sub-task finished").isFalse();
    }
  }
}
