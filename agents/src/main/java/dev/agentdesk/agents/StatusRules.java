package dev.agentdesk.agents;

import dev.agentdesk.agents.AgentStatus.Evidence;
import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.terminal.session.SessionState;

/**
 * The precedence of ADR 0016: the terminal's parsed state and the transcript's turn state become
 * one {@link AgentStatus}. A pure function, so each rule is a unit test and the corpus measurement
 * runs the same code as a live session.
 */
final class StatusRules {
  private StatusRules() {}

  /**
   * @param lifecycle the stored lifecycle
   * @param terminal the terminal's state, or null when no process runs here
   * @param turn the transcript's turn state ({@link TurnState#NONE} without a transcript)
   * @param questionSeq {@code turn.seq()} when the terminal raised its current question (so later
   *     transcript lines can be told from earlier ones)
   * @param contradicted the transcript already contradicted the current terminal question once:
   *     a turn that ends later does not make that question true (the screen must raise it anew)
   * @param nowMs session-clock time, for the rate limit
   */
  static AgentStatus combine(Lifecycle lifecycle, SessionState terminal, TurnState turn, long questionSeq,
      boolean contradicted, long nowMs) {
    if (lifecycle == Lifecycle.WORKTREE_MISSING) {
      return AgentStatus.of(Phase.WORKTREE_MISSING);
    }
    if (lifecycle == Lifecycle.ENDED || terminal == null || terminal.exited()) {
      return AgentStatus.of(Phase.ENDED);
    }
    // 1. A menu on screen is the most direct evidence there is.
    if (terminal.choicePrompt() != null) {
      return new AgentStatus(Phase.AWAITING_INPUT, terminal.choicePrompt().title(), terminal.choicePrompt(),
          Evidence.CHOICE_MENU, false);
    }
    // 2. A question tool call without a result, newer than the last prompt: the agent asked.
    if (turn.pendingQuestion() != null && turn.pendingQuestionSeq() > turn.lastUserSeq()) {
      return new AgentStatus(Phase.AWAITING_INPUT, turn.pendingQuestion(), null, Evidence.TRANSCRIPT_QUESTION, false);
    }
    if (terminal.awaitingInput()) {
      // 3. Protocol-backed questions (permission notifications, hooks) are not second-guessed.
      if (terminal.questionConfident()) {
        return new AgentStatus(Phase.AWAITING_INPUT, terminal.question(), null, Evidence.TERMINAL_CONFIDENT, false);
      }
      // 4. A heuristic question: the transcript can contradict or confirm it.
      boolean userSpokeSince = turn.lastUserSeq() > questionSeq;
      // IN_TURN is only set on positive evidence of work (a tool call or result, a task start, a
      // prompt): a text line with no stop reason leaves the phase alone.
      boolean working = turn.phase() == TurnState.Phase.IN_TURN;
      if (userSpokeSince || working || contradicted) {
        return new AgentStatus(activity(terminal, nowMs), null, null, Evidence.NONE, true);
      }
      Evidence e = turn.phase() == TurnState.Phase.TURN_ENDED ? Evidence.TERMINAL_CONFIRMED : Evidence.TERMINAL_HEURISTIC;
      return new AgentStatus(Phase.AWAITING_INPUT, terminal.question(), null, e, false);
    }
    return AgentStatus.of(activity(terminal, nowMs));
  }

  private static Phase activity(SessionState terminal, long nowMs) {
    if (terminal.rateLimitedAt(nowMs)) {
      return Phase.RATE_LIMITED;
    }
    return terminal.busy() ? Phase.BUSY : Phase.IDLE;
  }
}
