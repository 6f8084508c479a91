package dev.agentdesk.terminal.session;

import java.util.List;

/**
 * The session core's window on the terminal stack: raw OSC scanning, the VT engine and the output
 * parser for one session, plus the way timing decisions made by the core (silence questions,
 * retractions, busy/idle, choice clearing) become parser events. Keeping the parser's types behind
 * this interface lets the core stay a small, clock-driven state machine.
 */
interface OutputAnalyzer {

  /** What one output chunk showed. */
  record Analysis(List<String> changedRows, boolean statusLine, List<Finding> findings) {
    public Analysis {
      changedRows = List.copyOf(changedRows);
      findings = List.copyOf(findings);
    }
  }

  /** Facts from a chunk that the core acts on, in stream order. */
  sealed interface Finding {
    /** A parsed event that changes session state. */
    record Signal(SessionSignal signal) implements Finding {}

    /** An OSC 7770 hook marker; {@code payload} is the text after {@code 7770;}. */
    record Hook(String payload) implements Finding {}

    /** An agent status/spinner line: the agent is working, silence questions wait. */
    record StatusLine() implements Finding {}

    /** The screen confirms the user interrupted the agent. */
    record Interrupted() implements Finding {}

    /** The agent refused its session id (in use / not found). */
    record SessionConflict() implements Finding {}
  }

  /** Feeds one output chunk through OSC scanning, the VT engine and the parser. */
  Analysis analyze(byte[] chunk, long nowMs);

  /** User input, for parsers that track typed text (slash menus, echo). */
  void input(byte[] bytes, long nowMs);

  void resize(int cols, int rows);

  /** The visible screen rows, top to bottom, right-trimmed. */
  List<String> screen();

  /** The core raised a low-confidence question from silence. */
  void emitQuestion(long atMs, String text, boolean confident);

  void emitQuestionCleared(long atMs);

  void emitShellState(long atMs, boolean busy);

  void emitChoiceCleared(long atMs);
}
