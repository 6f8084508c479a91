package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.session.PtySession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stop ends what the agent started outside its process group too: a child in a session of its
 * own (setsid, as Codex's daemon and commands run in a PTY of their own do) is not reached by the
 * group's signals, and is ended after them.
 */
class GracefulStopTest {
  @Test
  void aChildThatLeftTheGroupIsEndedByTheStop(@TempDir Path tmp) throws Exception {
    TestRepo repo = TestRepo.create(tmp, "demo");
    try (AgentSessions sessions = AgentSessions.open(new AgentSessions.Config(tmp.resolve("agents.db"),
        tmp.resolve("worktrees"), Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString()), Duration.ofSeconds(5),
        Duration.ofMillis(100), TerminalHost.direct()))) {
      AgentSession s = sessions.start(AgentSpec.of(AgentType.COMMAND, repo.top).withInPlace(true)
          .withArgs(List.of("sh", "-c", "setsid sleep 300 & echo started; exec cat")));
      PtySession pty = sessions.terminal(s.id()).orElseThrow();
      String mark = PtySession.SESSION_ENV + "=" + pty.sessionId();
      Standins.await("the detached child", Duration.ofSeconds(10), () -> {
        try {
          return RealCodexTest.processesWith(mark).size() == 2;
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      List<ProcessHandle> detached = ProcessHandle.of(pty.pid()).orElseThrow().descendants().toList();
      assertThat(detached).hasSize(1);
      assertThat(sid(detached.get(0).pid())).as("in a session of its own").isNotEqualTo(sid(pty.pid()));

      sessions.stop(s.id());
      assertThat(detached.get(0).isAlive()).isFalse();
      assertThat(RealCodexTest.processesWith(mark)).isEmpty();
    }
  }

  /** Field 6 of /proc/PID/stat (after the parenthesised name, which may hold spaces). */
  private static long sid(long pid) throws java.io.IOException {
    String stat = java.nio.file.Files.readString(Path.of("/proc/" + pid + "/stat"));
    return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3]);
  }
}
