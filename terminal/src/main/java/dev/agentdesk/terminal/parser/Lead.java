package dev.agentdesk.terminal.parser;

/**
 * The start of a reported message: what may come before the message text on its row. Agents
 * put glyphs (✕ ✗ × ■ ⎿ ● ⚠), an "Error:" label or an exception class in front of errors;
 * prose never does, so anchoring generic patterns here keeps sentences about rate limits out.
 */
final class Lead {
  /**
   * Regex fragment: start of row, then marker glyphs and error labels. Both runs are bounded:
   * java.util.regex recurses once per repetition of a group, so an unbounded run over a logical
   * line of thousands of glyphs (a screen filled by {@code CSI n b}) overflowed the stack.
   * Claude Code puts a no-break space after its {@code ⎿} ("⎿ \u00A0Invalid API key"), which
   * {@code \s} does not match, so the glyphs may be followed by either.
   */
  static final String MARK = "^\\s*(?:[✕✗×■⎿●⏺•◦⚠⚡!>│┃▌]\\uFE0F?[\\s\\u00A0]*){0,16}"
      + "(?:\\[?(?:API )?Error:?\\s*|ERROR:?\\s*|error:?\\s*|Ran into this error:\\s*|Unexpected error:\\s*"
      + "|stream error:\\s*|[A-Za-z_][\\w.]*(?:Error|Exception):\\s*){0,4}";

  private Lead() {}
}
