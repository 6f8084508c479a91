package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ParsedEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The session core on its own, fed bytes in a chosen order with chosen times: the races a real
 * PTY produces only sometimes, made certain.
 */
class SessionCoreTest {
  private final List<SessionEvent> events = new ArrayList<>();
  private final ByteArrayOutputStream typedBySession = new ByteArrayOutputStream();
  private final SessionCore core = new SessionCore("id-0", Agent.CLAUDE, 100, 30, SessionTiming.defaults(), false,
      new SessionCore.Sink() {
        @Override
        public void emit(SessionEvent event) {
          events.add(event);
        }

        @Override
        public void writeToPty(byte[] bytes) {
          typedBySession.writeBytes(bytes);
        }
      }, 0, () -> "id-fresh");

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void outputReadBeforeAnInputButProcessedAfterItBelongsToTheOlderTurn() {
    long readTurn = core.turn(); // the reader read the chunk here…
    core.input(1_000, bytes("go on\r")); // …then the user's Enter took the lock first
    assertThat(core.turn()).isEqualTo(1);
    core.output(1_001, bytes("\u001b]777;notify;Claude Code;Claude is waiting for your input\u0007"), readTurn);
    assertThat(events).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(SessionEvent.Parsed.class,
        p -> assertThat(p.event()).isInstanceOf(ParsedEvent.Question.class)));
    assertThat(core.state().awaitingInput()).as("a question from turn 0 cannot set turn 1's state").isFalse();

    core.output(1_002, bytes("\u001b]777;notify;Claude Code;Claude is waiting for your input\u0007"), core.turn());
    assertThat(core.state().awaitingInput()).as("the same notification read in the current turn does").isTrue();
  }

  @Test
  void timersFireAtTheirDeadlinesHoweverLateTheTickComes() {
    core.output(0, bytes("working\r\n"), 0);
    assertThat(core.state().busy()).isTrue();
    core.tick(60_000); // one late tick
    List<Long> idleAt = events.stream()
        .filter(e -> e instanceof SessionEvent.Parsed p && p.event() instanceof ParsedEvent.ShellState s
            && s.state().wire().equals("idle"))
        .map(SessionEvent::atMs).toList();
    assertThat(idleAt).containsExactly(2_500L);
  }

  @Test
  void aSessionIdConflictTypesOneExportPerCooldown() {
    String line = "Session ID 2f9c1a4e-0000-4000-8000-000000000001 is already in use.\r\n";
    core.output(0, bytes(line), 0);
    core.output(1_000, bytes(line), 0);
    assertThat(typedBySession.toString(StandardCharsets.US_ASCII)).isEqualTo("export AGENTDESK_SESSION=id-fresh\r");
    assertThat(core.state().sessionId()).isEqualTo("id-fresh");
  }
}
