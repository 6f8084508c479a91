package dev.agentdesk.transcripts;

/**
 * What one transcript entry says about where a live agent's turn stands, in no provider's terms.
 * Each adapter derives these from its own format's lines ({@link TurnSignals}); a reader of live
 * sessions (the agents module) folds them into its turn state without knowing any format.
 * History never stores them: a stop reason is a live signal, not part of the conversation.
 */
public sealed interface TurnSignal {
  /** A person's prompt: a turn starts, and calls of earlier turns no longer count. */
  record Prompted() implements TurnSignal {}

  /** Positive evidence of work without a call to track: a task started, a tool result handed to the model. */
  record Working() implements TurnSignal {}

  /**
   * The model called a tool; the turn goes on until its result.
   *
   * @param callId the call's id (adapters of formats without ids make one up, unique in the file)
   * @param tool the tool's name as the agent names it
   * @param question what the call asks the user (a question or plan-approval tool), else null
   */
  record ToolCalled(String callId, String tool, String question) implements TurnSignal {}

  /** The result of the call {@code callId} arrived. */
  record ToolAnswered(String callId) implements TurnSignal {}

  /**
   * The model wrote without ending the turn or calling a tool. Whether more follows is not written
   * down, so this is work in progress only while a call is open.
   *
   * @param hasText it wrote visible text (not only thinking)
   */
  record Replied(boolean hasText) implements TurnSignal {}

  /**
   * The turn ended.
   *
   * @param closesCalls the format ends every call with its turn (a call still open is abandoned)
   */
  record TurnEnded(boolean closesCalls) implements TurnSignal {}
}
