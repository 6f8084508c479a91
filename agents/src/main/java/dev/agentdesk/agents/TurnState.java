package dev.agentdesk.agents;

/**
 * What a transcript says about the current turn, as far as it has been read. {@code seq} counts
 * the transcript lines read; the other {@code …Seq} fields name the line that last changed them,
 * so they can be compared with the line count at the moment the terminal raised a question.
 *
 * @param phase where the turn stands
 * @param pendingQuestion text of a question tool call still without a result, or null
 * @param pendingQuestionTool its tool name, as the agent names it, or null
 * @param pendingQuestionSeq the line of that call
 * @param pendingTools other tool calls still without a result
 * @param lastUserSeq the line of the last real user message (a prompt, not a tool result); 0 if none
 * @param seq lines read so far
 */
record TurnState(Phase phase, String pendingQuestion, String pendingQuestionTool, long pendingQuestionSeq,
    int pendingTools, long lastUserSeq, long seq) {

  /** Where the turn stands. */
  enum Phase {
    /** Nothing known: no transcript, or no line that says. */
    UNKNOWN,
    /**
     * Positive evidence of work in progress: a tool call without result, a tool result the model has
     * not answered yet, a Codex task started and not completed, a user prompt not yet answered.
     */
    IN_TURN,
    /** The turn ended, as the adapter reads its format ({@code TurnSignal.TurnEnded}; docs/session-detail.md). */
    TURN_ENDED
  }

  static final TurnState NONE = new TurnState(Phase.UNKNOWN, null, null, 0, 0, 0, 0);
}
