package dev.agentdesk.agents;

import dev.agentdesk.terminal.session.PendingChoice;
import java.util.Locale;

/**
 * The live status of an agent session, combined from the terminal's parsed state and the
 * transcript (precedence: docs/adr/0016-agent-status-from-two-signals.md).
 *
 * @param phase what the badge shows
 * @param question the question when {@code phase} is {@link Phase#AWAITING_INPUT}, else null
 * @param choice the choice menu on screen, or null
 * @param evidence why the session counts as awaiting input ({@link Evidence#NONE} otherwise)
 * @param clearedByTranscript a low-confidence terminal question the transcript contradicted
 *     (the agent is mid-turn or the user already answered); shown for transparency
 */
public record AgentStatus(Phase phase, String question, PendingChoice choice, Evidence evidence,
    boolean clearedByTranscript) {

  /** The badge. */
  public enum Phase {
    BUSY, IDLE, AWAITING_INPUT, RATE_LIMITED, ENDED, WORKTREE_MISSING;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Which signal says the agent waits for the user. */
  public enum Evidence {
    NONE,
    /** A numbered choice menu is on screen. */
    CHOICE_MENU,
    /** The transcript holds a call that asks the user (a question or plan approval) without a result. */
    TRANSCRIPT_QUESTION,
    /** A protocol-backed terminal question (OSC 777 permission request, hook {@code state=awaiting}). */
    TERMINAL_CONFIDENT,
    /** A heuristic terminal question that the transcript confirms: the turn has ended. */
    TERMINAL_CONFIRMED,
    /** A heuristic terminal question the transcript neither confirms nor contradicts. */
    TERMINAL_HEURISTIC;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static AgentStatus of(Phase phase) {
    return new AgentStatus(phase, null, null, Evidence.NONE, false);
  }

  public boolean awaitingInput() {
    return phase == Phase.AWAITING_INPUT;
  }
}
