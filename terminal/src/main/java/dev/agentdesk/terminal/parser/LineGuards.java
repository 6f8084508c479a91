package dev.agentdesk.terminal.parser;

import java.util.regex.Pattern;

/**
 * False-positive guards applied to rate-limit, API-error and question matches: a line that looks
 * like source code, a diff, a numbered code listing or Markdown structure is the agent showing
 * text, not the agent (or its provider) reporting a condition.
 */
final class LineGuards {
  private static final Pattern DECLARATION = Pattern.compile(
      "^(?:pub(?:\\(crate\\))?\\s+)?(?:fn|const|let|var|val|function|def|class|interface|enum|struct|impl|import|"
          + "export|return|throw|raise|public|private|protected|static|final|case|if|elif|else|for|while|match|assert)\\b");
  private static final Pattern RAW_STRING = Pattern.compile("(?:^|[^A-Za-z0-9_])r#*\"");
  private static final Pattern STRING_DELIMITER = Pattern.compile("[\"'`]");
  private static final Pattern CODE_PUNCTUATION = Pattern.compile("[;{]\\s*$|^[})\\]]");
  private static final Pattern ASSIGNS_OR_CALLS_STRING = Pattern.compile("(?:=|\\(|,)\\s*[\"'`]");
  private static final Pattern LINE_NUMBER_CODE = Pattern.compile("^\\s*\\d{1,6}(?:\\s+[-+]\\s|\\s*[│|:→]|\\s{2,}\\S)");
  private static final Pattern DIFF_SUMMARY = Pattern.compile("(?i)(?:added|removed|updated)\\s*\\d+\\s*lines?|\\d+\\s+(?:additions?|removals?|deletions?)");
  private static final Pattern TOOL_CALL_HEADER = Pattern.compile("^\\s*[⏺●]\\s*[A-Z]\\w*\\(");

  private LineGuards() {}

  /** Source code, comments, Markdown fences/bullets/tables, raw string literals. */
  static boolean isSourceCode(String line) {
    String t = line.strip();
    if (t.isEmpty()) {
      return false;
    }
    if (t.startsWith("//") || t.startsWith("/*") || t.startsWith("* ") || t.startsWith("*/")
        || t.startsWith("#") || t.startsWith("--") && !t.startsWith("---") || t.startsWith("```") || t.startsWith("~~~")
        || t.startsWith("- ") || t.startsWith("<!--")) {
      return true;
    }
    if (t.startsWith("|") && t.endsWith("|") && t.length() > 1) {
      return true;
    }
    if (RAW_STRING.matcher(t).find() || DECLARATION.matcher(t).find() || CODE_PUNCTUATION.matcher(t).find()) {
      return true;
    }
    if (ASSIGNS_OR_CALLS_STRING.matcher(t).find() && !t.contains("{\"") && !t.startsWith("{")) {
      // msg = "Rate limit exceeded", log("...", …) — a string in code. Provider JSON bodies
      // ({"type":…}) are reported output and stay eligible.
      return true;
    }
    int indent = line.length() - line.stripLeading().length();
    return indent >= 4 && STRING_DELIMITER.matcher(t).find() && !t.startsWith("{") && !t.startsWith("[");
  }

  /** Unified-diff lines, numbered code listings and Claude Code's diff/tool summaries. */
  static boolean isDiffOrCodeContext(String raw, String trimmed) {
    if (raw.startsWith("+") || raw.startsWith("-") || raw.startsWith("@@") || trimmed.startsWith("diff --git")
        || trimmed.startsWith("+++ ") || trimmed.startsWith("--- ")) {
      return true;
    }
    if (LINE_NUMBER_CODE.matcher(raw).find()) {
      return true;
    }
    if ((trimmed.startsWith("⎿") || trimmed.startsWith("⏺")) && DIFF_SUMMARY.matcher(trimmed).find()) {
      return true;
    }
    if (DIFF_SUMMARY.matcher(trimmed.replace(" ", "")).lookingAt()) {
      return true;
    }
    return TOOL_CALL_HEADER.matcher(raw).find();
  }

  /** Either guard. */
  static boolean isCodeOrDiff(String raw) {
    return isSourceCode(raw) || isDiffOrCodeContext(raw, raw.strip());
  }

  /**
   * True when position {@code at} of {@code line} lies inside a backtick or double-quote span:
   * prose quoting a message ("`Rate limit exceeded` means …") rather than reporting it.
   */
  static boolean insideQuotes(String line, int at) {
    int backticks = 0;
    int quotes = 0;
    for (int i = 0; i < at && i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '`') {
        backticks++;
      } else if (c == '"' || c == '“' || c == '”') {
        quotes++;
      }
    }
    return backticks % 2 == 1 || quotes % 2 == 1;
  }
}
