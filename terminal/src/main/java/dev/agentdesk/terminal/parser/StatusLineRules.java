package dev.agentdesk.terminal.parser;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Each agent's live status/spinner line, with elapsed time and token count split out. */
final class StatusLineRules {
  /**
   * Claude Code: "✽ Nucleating… (3m 50s · ↓ 7.8k tokens · esc to interrupt)", and the same spinner
   * glyphs (Copilot's "∴" too) with nothing after the ellipsis: "* Reading files...", "∴ Thinking…".
   */
  private static final Pattern CLAUDE = Pattern.compile(
      "^\\s*[✻✽✶✳✢*·⏺●∴]\\s*(\\S[^…()]*?)(?:…|\\.\\.\\.)\\s*([^()]*?)\\s*(?:\\(([^()]*)\\)?)?\\s*$");
  /**
   * Without the parenthesised time the glyph could be a Markdown bullet: only a short phrase that
   * starts with a capital and ends at the ellipsis ("Reading files", "Thinking") is a spinner.
   */
  private static final Pattern SPINNER_PHRASE = Pattern.compile("^[A-Z][\\w'’-]*(?: [\\w'’/.-]+){0,5}$");
  /** Codex: "• Working (4s • esc to interrupt) · 1 background terminal running". */
  private static final Pattern CODEX = Pattern.compile(
      "^\\s*[•◦]\\s+(\\S.*?)\\s+\\((\\d+[hms](?:\\s*\\d+[hms]){0,8})(?:\\s*[•·]\\s*[Ee]sc to interrupt)?\\)(.*)$");
  /** Gemini CLI: "⠏ Thinking... (esc to cancel, 5s)". */
  private static final Pattern GEMINI = Pattern.compile(
      "^\\s*[\\u2800-\\u28FF]\\s+(\\S.*?)\\s*\\([Ee]sc to cancel,\\s*([^)]+)\\)\\s*$");
  /** Copilot CLI: "∙ Thinking (Esc to cancel · 668 B)" and the newer "◉ Finding deploy pattern esc cancel". */
  private static final Pattern COPILOT = Pattern.compile(
      "^\\s*[◉◎○∙•●◐◓◑◒]\\s+(\\S.*?)\\s*(?:\\([Ee]sc to cancel(?:\\s*·\\s*([^)]*))?\\)|\\besc cancel)\\s*$");
  /** Aider: "Tokens: 4.2k sent, 123 received. Cost: $0.01 message, $0.05 session." */
  private static final Pattern AIDER_TOKENS = Pattern.compile(
      "^\\s*Tokens:\\s*(\\S+ sent,[^.]*?\\S+ received)(?:[^.]*)\\.?(?:\\s*Cost:.*)?$");
  /** Aider's knight-rider spinner: "░█   Waiting for claude-sonnet-4". */
  private static final Pattern AIDER_SPINNER = Pattern.compile(
      "^\\s*[░█▒▓]{2,}\\s+((?:Waiting for|Updating repo map)\\b.*?)\\s*$");
  /** pi: "⠋ Working..." and "⠼ Retrying (1/3) in 1s... (escape to cancel)". */
  private static final Pattern PI = Pattern.compile(
      "^\\s*[\\u2800-\\u28FF]\\s+((?:Working|Retrying\\b[^.]*?))\\.\\.\\.\\s*(?:\\(escape to cancel\\))?\\s*$");
  /** Goose: "◓  Building response chains...". */
  private static final Pattern GOOSE = Pattern.compile("^\\s*[◐◓◑◒]\\s+(\\S.*?(?:\\.\\.\\.|…))\\s*$");
  /** Goose and others without a glyph: "Thinking...  (Ctrl+C to interrupt)". */
  private static final Pattern INTERRUPT_HINT = Pattern.compile(
      "^\\s*(\\S[^()]*?)(?:\\.\\.\\.|…)\\s*\\((?:[Cc]trl\\+[Cc]|[Ee]sc) to (?:interrupt|cancel)\\)\\s*$");
  /** A task runner's banner: "[Running] npm test". */
  private static final Pattern RUNNING = Pattern.compile("^\\s*\\[Running\\]\\s+(\\S.*?)\\s*$");
  /**
   * Generic braille spinner: "⠋ Installing dependencies… (12s)", "⠋ Analyzing your codebase" (a
   * braille glyph leading a row is a spinner frame; the ellipsis is optional).
   */
  private static final Pattern GENERIC = Pattern.compile(
      "^\\s*[\\u2801-\\u28FF]\\s+(\\S.*?)(?:\\.\\.\\.|…)?\\s*(?:\\(([^)]*)\\))?\\s*$");

  // Repeated groups are bounded ({0,8}): java.util.regex recurses per repetition, and a
  // logical line can be a whole screen long.
  private static final Pattern TIME = Pattern.compile("^\\s*(\\d+(?:\\.\\d+)?[hms](?:\\s*\\d+(?:\\.\\d+)?[hms]){0,8})\\s*$");
  private static final Pattern TOKENS = Pattern.compile("(?i)^\\s*(.*\\btokens?\\b.*?)\\s*$");

  private StatusLineRules() {}

  /** The status line on {@code row}, or null. */
  static ParsedEvent.StatusLine match(String row) {
    String full = row.strip();
    Matcher m = CODEX.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine(m.group(1).strip(), full, m.group(2), null);
    }
    m = GEMINI.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine(m.group(1).strip(), full, m.group(2).strip(), null);
    }
    m = CLAUDE.matcher(row);
    if (m.find() && m.group(3) == null && m.group(2).isEmpty() && SPINNER_PHRASE.matcher(m.group(1).strip()).matches()) {
      return new ParsedEvent.StatusLine(m.group(1).strip(), full, null, null);
    }
    if (m.find(0) && m.group(3) != null) {
      // Parts inside the parentheses (and any tail before them) are "·"-separated.
      String inner = (m.group(2) + " · " + m.group(3));
      return new ParsedEvent.StatusLine(m.group(1).strip(), full, part(inner, TIME), part(inner, TOKENS));
    }
    m = COPILOT.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine(m.group(1).strip(), full, null, m.group(2) == null ? null : m.group(2).strip());
    }
    m = AIDER_TOKENS.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine("aider", full, null, m.group(1));
    }
    m = AIDER_SPINNER.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine(m.group(1), full, null, null);
    }
    m = PI.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine(m.group(1), full, null, null);
    }
    m = GOOSE.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine(m.group(1), full, null, null);
    }
    m = INTERRUPT_HINT.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine(m.group(1).strip(), full, null, null);
    }
    m = RUNNING.matcher(row);
    if (m.find()) {
      return new ParsedEvent.StatusLine(m.group(1), full, null, null);
    }
    m = GENERIC.matcher(row);
    if (m.find()) {
      String inner = m.group(2) == null ? "" : m.group(2);
      return new ParsedEvent.StatusLine(m.group(1).strip(), full, part(inner, TIME), part(inner, TOKENS));
    }
    return null;
  }

  private static String part(String inner, Pattern p) {
    for (String seg : inner.split("[·•,]")) {
      Matcher m = p.matcher(seg);
      if (m.find()) {
        return m.group(1).strip();
      }
    }
    return null;
  }

  /** Cheap pre-filter: every status line has an ellipsis, a key hint, a leading spinner glyph or a label. */
  static boolean mayMatch(String row) {
    if (row.indexOf('…') >= 0 || row.contains("...") || row.contains("sc to ") || row.contains("esc cancel")
        || row.contains("Tokens:") || row.contains("Waiting for") || row.contains("Updating repo map")
        || row.contains("[Running]")) {
      return true;
    }
    String t = row.stripLeading();
    if (t.isEmpty()) {
      return false;
    }
    char c = t.charAt(0);
    return c >= '\u2801' && c <= '\u28FF' || (c == '•' || c == '◦') && row.indexOf('(') >= 0;
  }
}
