package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session-id conflict inside a real interactive shell: the session types a fresh
 * {@code export AGENTDESK_SESSION=…} at most once per 3 s, and the shell really gets the new id.
 */
class ConflictScenarioTest {

  @Test
  void conflictWritesAFreshSessionIdIntoTheShellOncePerCooldown() throws Exception {
    SessionSpec spec = SessionSpec.of("bash", "--norc", "--noprofile", "-i").withAgent(Agent.CLAUDE)
        .withEnv("PS1", "$ ").withSize(200, 40);
    try (StandIn a = StandIn.start(spec)) {
      String first = a.session.sessionId();
      a.typeLine("bash " + StandIn.script("claude.sh") + " conflict; echo done-$((1+1))");
      a.awaitScreen("done-2"); // the command echo shows "$((…))", only the output shows the sum
      List<SessionEvent> resets = resets(a);
      assertThat(resets).as("three error lines, one reset").hasSize(1);
      String second = ((SessionEvent.SessionIdReset) resets.get(0)).newId();
      assertThat(((SessionEvent.SessionIdReset) resets.get(0)).previousId()).isEqualTo(first);
      assertThat(second).isNotEqualTo(first).matches("[0-9a-f-]{36}");
      assertThat(a.state().sessionId()).isEqualTo(second);

      a.typeLine("echo \"now=${AGENTDESK_SESSION}\"");
      a.awaitScreen("now=" + second);

      a.advance(2_999);
      a.typeLine("bash " + StandIn.script("claude.sh") + " conflict; echo done-$((2+2))");
      a.awaitScreen("done-4"); // the command echo shows "$((…))", only the output shows the sum
      assertThat(resets(a)).as("within the 3 s cooldown").hasSize(1);

      a.advance(3_001);
      a.typeLine("bash " + StandIn.script("claude.sh") + " conflict; echo done-$((3+3))");
      a.awaitScreen("done-6"); // the command echo shows "$((…))", only the output shows the sum
      assertThat(resets(a)).hasSize(2);
      String third = ((SessionEvent.SessionIdReset) resets(a).get(1)).newId();
      a.typeLine("echo \"now=${AGENTDESK_SESSION}\"");
      a.awaitScreen("now=" + third);
    }
  }

  private static List<SessionEvent> resets(StandIn a) {
    return a.rec.events().stream().filter(e -> e instanceof SessionEvent.SessionIdReset).toList();
  }
}
