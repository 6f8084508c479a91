package dev.agentdesk.terminal.session;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Screen-verified silence question detection (spec: Question, second source) and the retraction
 * of low-confidence questions (QuestionCleared). Single-threaded and clock-free: every method gets
 * the session-clock time, so the same inputs give the same decisions live and in replay.
 *
 * <p>Life of a candidate: a changed row ending in {@code ?} (content filters in
 * {@link QuestionLines}) becomes the candidate; every later output chunk without a {@code ?} row
 * makes it staler and more than {@code staleChunks} of them drop it; once output has been quiet
 * for {@code silenceMs} the timer fires, and the candidate becomes a low-confidence question only
 * if no status line was seen in the spinner window, the session has not emitted a hook
 * {@code state=} marker, its turn is still current, and it is still among the last lines of the
 * chat content. Rows in the echo window that contain the user's typed text and rows redrawn in the
 * resize grace are never candidates.
 */
final class SilenceDetector {
  /** Answered questions remembered so a repaint of the conversation cannot raise them again. */
  private static final int ANSWERED_MEMORY = 32;

  /** A decision of {@link #fire}. */
  sealed interface Outcome {
    record Raise(String text, long epoch) implements Outcome {}

    record Retract(long epoch) implements Outcome {}
  }

  private final SessionTiming timing;
  private String candidate;
  private long candidateEpoch;
  private int staleChunks;
  private long lastOutputMs = Long.MIN_VALUE / 2;
  private long lastStatusLineMs = Long.MIN_VALUE / 2;
  private long lastInputMs = Long.MIN_VALUE / 2;
  private String lastInputText = "";
  private long lastResizeMs = Long.MIN_VALUE / 2;
  private long epoch;
  private boolean hookSuppressed;
  /** The low-confidence question this detector may retract, with the turn it was raised in. */
  private String tracked;
  private boolean trackedFromScreen;
  private long trackedEpoch;
  private boolean retractionDue;
  private final Deque<String> answered = new ArrayDeque<>();

  SilenceDetector(SessionTiming timing) {
    this.timing = timing;
  }

  /** One processed output chunk: its changed rows' text and whether it carried a status line. */
  void onOutput(long nowMs, List<String> changedRows, boolean statusLine) {
    lastOutputMs = nowMs;
    retractionDue = tracked != null;
    if (statusLine) {
      lastStatusLineMs = nowMs;
    }
    if (nowMs - lastResizeMs < timing.resizeGraceMs()) {
      return; // a redraw after resize repeats old rows; nothing here is new
    }
    List<String> rows = changedRows;
    if (nowMs - lastInputMs < timing.echoWindowMs() && !lastInputText.isEmpty()) {
      rows = changedRows.stream().filter(r -> !r.contains(lastInputText)).toList();
    }
    String found = QuestionLines.candidate(rows);
    if (found != null && !answered.contains(found) && !found.equals(tracked)) {
      if (!found.equals(candidate)) {
        candidate = found;
        candidateEpoch = epoch;
      }
      staleChunks = 0;
    } else if (candidate != null && ++staleChunks > timing.staleChunks()) {
      candidate = null;
    }
  }

  void onStatusLine(long nowMs) {
    lastStatusLineMs = nowMs;
  }

  /** Real user input: a new turn; pending and shown questions count as answered. */
  void onInput(long nowMs, String typed, long newEpoch) {
    lastInputMs = nowMs;
    String t = typed.strip();
    lastInputText = t.length() >= 2 ? t : "";
    epoch = newEpoch;
    remember(candidate);
    remember(tracked);
    candidate = null;
    tracked = null;
    retractionDue = false;
  }

  void onResize(long nowMs) {
    lastResizeMs = nowMs;
  }

  /** The session emitted an OSC 7770 {@code state=} marker: heuristic questions stop for good. */
  void onHookState() {
    hookSuppressed = true;
    candidate = null;
  }

  /**
   * A low-confidence question was raised by another source (an OSC 777 "waiting for your input"
   * notification); track it for retraction. Its text is not on screen, so retraction asks whether
   * the screen shows any prompt at all rather than this text.
   */
  void trackExternal(String text, long questionEpoch) {
    tracked = text;
    trackedFromScreen = false;
    trackedEpoch = questionEpoch;
    retractionDue = true;
  }

  /** The question this detector tracked was cleared elsewhere (input, hook busy, exit). */
  void untrack() {
    tracked = null;
    retractionDue = false;
  }

  /** When the next decision is due on the session clock, or {@link Long#MAX_VALUE} for never. */
  long deadline() {
    return candidate != null || retractionDue ? lastOutputMs + timing.silenceMs() : Long.MAX_VALUE;
  }

  /**
   * Decides at {@code atMs} (at or after {@link #deadline()}) with the visible screen as it is now.
   *
   * @param awaitingLowConfidence the reducer's view: awaiting, not confident and no choice menu
   */
  Outcome fire(long atMs, List<String> screen, boolean awaitingLowConfidence) {
    if (atMs < deadline()) {
      return null;
    }
    if (candidate != null) {
      String text = candidate;
      long candEpoch = candidateEpoch;
      candidate = null;
      boolean spinner = atMs - lastStatusLineMs < timing.spinnerWindowMs();
      if (!hookSuppressed && !spinner && candEpoch == epoch && QuestionLines.stillShown(text, screen)) {
        tracked = text;
        trackedFromScreen = true;
        trackedEpoch = candEpoch;
        retractionDue = false;
        return new Outcome.Raise(text, candEpoch);
      }
    }
    if (retractionDue) {
      retractionDue = false;
      boolean current = trackedFromScreen ? QuestionLines.stillShown(tracked, screen)
          : QuestionLines.showsAnyPrompt(screen);
      if (awaitingLowConfidence && !current) {
        long e = trackedEpoch;
        tracked = null;
        return new Outcome.Retract(e);
      }
    }
    return null;
  }

  private void remember(String question) {
    if (question != null && !answered.contains(question)) {
      answered.addLast(question);
      if (answered.size() > ANSWERED_MEMORY) {
        answered.removeFirst();
      }
    }
  }
}
