package dev.agentdesk.agents;

import dev.agentdesk.terminal.session.Key;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ends an agent as it expects to be ended: its {@link AgentRules#farewell} (its own exit keys and
 * time to write its last records, in rounds), then SIGTERM to the process group and
 * {@link AgentRules#TERM_WAIT}, then {@link PtySession#close()} (SIGKILL; waits for the exit to be
 * processed); then the same for any of its processes that had left the group. Blocks the caller for
 * at most the farewell's rounds, two TERM waits and close's own.
 */
final class GracefulStop {
  private GracefulStop() {}

  static void end(PtySession pty, AgentType type) {
    AgentRules.Farewell f = AgentRules.farewell(type);
    // Taken while the agent runs: once it exits, a child that left its process group (setsid: a
    // daemon, a command run in a PTY of its own) is re-parented and no longer traceable to it.
    Set<ProcessHandle> tree = new HashSet<>(descendants(pty));
    try {
      for (int round = 0; round < f.rounds() && pty.isRunning(); round++) {
        for (Key k : f.keys()) {
          pty.sendKey(k);
          Thread.sleep(AgentRules.KEY_GAP.toMillis());
        }
        pty.waitFor(f.patience());
      }
      if (pty.isRunning()) {
        tree.addAll(descendants(pty));
        pty.terminate();
        pty.waitFor(AgentRules.TERM_WAIT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (SessionException e) {
      // it exited between the check and the key
    }
    pty.close();
    endStragglers(tree);
  }

  private static List<ProcessHandle> descendants(PtySession pty) {
    return ProcessHandle.of(pty.pid()).map(h -> h.descendants().toList()).orElse(List.of());
  }

  /** SIGTERM to what is left of the agent's processes outside its group, {@link AgentRules#TERM_WAIT}, then SIGKILL. */
  private static void endStragglers(Set<ProcessHandle> tree) {
    List<ProcessHandle> alive = tree.stream().filter(ProcessHandle::isAlive).toList();
    if (alive.isEmpty()) {
      return;
    }
    alive.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + AgentRules.TERM_WAIT.toNanos();
    for (ProcessHandle h : alive) {
      try {
        h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        h.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        alive.forEach(ProcessHandle::destroyForcibly);
        return;
      }
    }
  }
}
