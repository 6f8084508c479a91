package dev.agentdesk.terminal.session;

import java.util.List;

/**
 * What the session reducer folds into {@link SessionState}: parsed output events (mapped from the
 * output parser's types), user input, hook markers, timing results and process exit. Question and
 * retraction signals carry the input turn they were observed in so the reducer can drop ones from
 * an older turn.
 */
sealed interface SessionSignal {

  /** Real user input: a new turn begins. */
  record UserInput(long epoch) implements SessionSignal {}

  /** Output timing or a hook decided busy or idle. */
  record Shell(boolean busy) implements SessionSignal {}

  /** The agent waits for an answer. */
  record QuestionAsked(String text, boolean confident, long epoch) implements SessionSignal {}

  /** A low-confidence question is no longer the current prompt. */
  record QuestionRetracted(long epoch) implements SessionSignal {}

  record ChoiceShown(PendingChoice choice) implements SessionSignal {}

  /** The choice menu disappeared from the screen. */
  record ChoiceGone() implements SessionSignal {}

  /** An OSC 7770 {@code state=} marker. */
  record HookState(HookMarker.State state, String question, long epoch) implements SessionSignal {}

  /** An OSC 7770 {@code block} key: a Stop hook kept the turn open. */
  record HookBlocked() implements SessionSignal {}

  record RateLimited(Long untilMs, String text) implements SessionSignal {}

  record Usage(int percentage, String limitType) implements SessionSignal {}

  record UsageExhausted(String resetText) implements SessionSignal {}

  record Subtasks(int count) implements SessionSignal {}

  record Intent(String text, String title) implements SessionSignal {}

  record Suggestions(List<String> items) implements SessionSignal {}

  record PullRequest(String url) implements SessionSignal {}

  record ApiError(String text, String kind) implements SessionSignal {}

  /** A conflict reset gave the session a new {@code AGENTDESK_SESSION} id. */
  record SessionIdReset(String newId) implements SessionSignal {}

  /** The clock moved: time-bound facts (rate limits) may run out. */
  record Tick(long nowMs) implements SessionSignal {}

  record Exited(int exitCode) implements SessionSignal {}
}
