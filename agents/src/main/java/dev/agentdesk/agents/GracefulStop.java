package dev.agentdesk.agents;

import dev.agentdesk.terminal.session.Key;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionException;

/**
 * Ends an agent as it expects to be ended: its {@link AgentRules#farewell} (its own exit keys and
 * time to write its last records, in rounds), then SIGTERM to the process group and
 * {@link AgentRules#TERM_WAIT}, then {@link PtySession#close()} (SIGKILL; waits for the exit to be
 * processed). Blocks the caller for at most the farewell's rounds, the TERM wait and close's own.
 */
final class GracefulStop {
  private GracefulStop() {}

  static void end(PtySession pty, AgentType type) {
    AgentRules.Farewell f = AgentRules.farewell(type);
    try {
      for (int round = 0; round < f.rounds() && pty.isRunning(); round++) {
        for (Key k : f.keys()) {
          pty.sendKey(k);
          Thread.sleep(AgentRules.KEY_GAP.toMillis());
        }
        pty.waitFor(f.patience());
      }
      if (pty.isRunning()) {
        pty.terminate();
        pty.waitFor(AgentRules.TERM_WAIT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (SessionException e) {
      // it exited between the check and the key
    }
    pty.close();
  }
}
