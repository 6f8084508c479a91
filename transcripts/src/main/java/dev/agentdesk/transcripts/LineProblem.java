package dev.agentdesk.transcripts;

/** A source line that was skipped: which file, which 1-based line, and why. */
public record LineProblem(String file, long line, String reason) {
  @Override
  public String toString() {
    return file + ":" + line + ": " + reason;
  }
}
