package dev.agentdesk.terminal.parser;

/**
 * Which rendered rows may be a question to the user: rows ending in {@code ?} that are not code
 * comments, Markdown headers, diff context or code syntax ({@code ->}, {@code =>}, {@code ::},
 * {@code )?}).
 */
final class QuestionLines {
  private static final int MIN_LENGTH = 4;
  private static final int MAX_LENGTH = 400;

  private QuestionLines() {}

  /** The trimmed question text of {@code row}, or null when it is not a candidate. */
  static String candidate(String row) {
    String t = row.strip();
    if (t.length() < MIN_LENGTH || t.length() > MAX_LENGTH || !t.endsWith("?") || t.endsWith("??")) {
      return null;
    }
    if (t.startsWith("//") || t.startsWith("#") || t.startsWith("+") || t.startsWith("-") || t.startsWith(">")
        || t.contains("->") || t.contains("=>") || t.contains("::") || t.contains(")?")) {
      return null;
    }
    if (LineGuards.isSourceCode(row) || LineGuards.isDiffOrCodeContext(row, t)) {
      return null;
    }
    // Strip the agent's bullet so the prompt reads as the sentence.
    return t.replaceFirst("^[●⏺•◦✻⎿]\\s*", "");
  }
}
