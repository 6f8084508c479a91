package dev.agentdesk.terminal.session;

import java.util.List;

/** Placeholder wiring until the VT engine and parser are connected. */
final class TerminalAnalyzer implements OutputAnalyzer {
  static OutputAnalyzer create(SessionSpec spec) {
    return new TerminalAnalyzer();
  }

  @Override
  public Analysis analyze(byte[] chunk, long nowMs) {
    return new Analysis(List.of(), false, List.of());
  }

  @Override
  public void input(byte[] bytes, long nowMs) {}

  @Override
  public void resize(int cols, int rows) {}

  @Override
  public List<String> screen() {
    return List.of();
  }

  @Override
  public void emitQuestion(long atMs, String text, boolean confident) {}

  @Override
  public void emitQuestionCleared(long atMs) {}

  @Override
  public void emitShellState(long atMs, boolean busy) {}

  @Override
  public void emitChoiceCleared(long atMs) {}
}
