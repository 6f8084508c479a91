package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The single-row detectors that need no guards: URLs, tokens, usage, session conflicts, mode lines. */
final class LineRules {
  private static final String URL_TAIL = "(?=[\\s)\\]>\"'`,;]|$)";
  private static final Pattern GITHUB = Pattern.compile("https?://github\\.com/[\\w.-]+/[\\w.-]+/pull/(\\d{1,9})" + URL_TAIL);
  private static final Pattern GITLAB = Pattern.compile("https?://[\\w.-]*gitlab[\\w.-]*(?::\\d+)?/[\\w./-]+?/-/merge_requests/(\\d{1,9})" + URL_TAIL);
  private static final Pattern BITBUCKET = Pattern.compile("https?://bitbucket\\.org/[\\w.-]+/[\\w.-]+/pull-requests/(\\d{1,9})" + URL_TAIL);
  private static final Pattern AZURE = Pattern.compile(
      "https?://(?:dev\\.azure\\.com/[\\w.%-]+|[\\w-]+\\.visualstudio\\.com)/[\\w.%-]+/_git/[\\w.%-]+/pullrequest/(\\d{1,9})" + URL_TAIL);

  private static final Pattern INTENT = Pattern.compile("^\\s*(?:[●⏺•◦]\\s*)?intent:\\s+(.+?)\\s*$");
  private static final Pattern INTENT_TITLE = Pattern.compile("^(.*?)\\s*\\(([^()]{1,40})\\)$");
  /**
   * A plan file: absolute, home-relative or relative ("plans/x.md", ".claude/plans/x.md"), a path
   * word of its own (not part of a URL or a longer word), ending at a space, a quote or bracket, or
   * sentence punctuation. Only plain name characters: a glob ("plans/*.md") or a template
   * ("plans/${name}.md") names no file.
   */
  private static final Pattern PLAN_FILE = Pattern.compile(
      "(?<![\\w./~:$@+-])((?:~/|/)?(?:[\\w.@+-]+/)*plans/[\\w.@+-]+\\.md)(?=[\\s)\\]>\"'`,;:!?]|\\.(?:\\s|$)|$)");

  private static final String APOS = "(?:'|’)";
  private static final Pattern USAGE_LIMIT = Pattern.compile(
      "(?i)You" + APOS + "ve used (\\d{1,3})% of your (weekly|session) limit");
  private static final Pattern USAGE_EXHAUSTED = Pattern.compile(
      "(?i)" + Lead.MARK + "(?:You" + APOS + "re |You are )?out of (?:extra )?usage\\b(?:.*?·\\s*resets?\\s+(.+?))?\\s*$");
  private static final Pattern SESSION_IN_USE = Pattern.compile("Session ID ([0-9a-fA-F-]{8,}) is already in use\\.?");
  private static final Pattern SESSION_NOT_FOUND = Pattern.compile("No conversation found with session ID:?\\s*([0-9a-fA-F-]{8,})");
  /** A mode line, with Claude Code's newer count-left form: "1 shell · ⏵⏵ bypass permissions on". */
  private static final Pattern MODE_LINE = Pattern.compile("^\\s*(?:(\\d{1,4}\\s+[A-Za-z][A-Za-z ]*?)\\s*·\\s*)?(?:››|⏵⏵)\\s*(.*)$");
  /**
   * The count alone on its row ("  1 shell", "  2 local agents"), as Claude Code draws it when no
   * mode is shown: only the kinds of sub-task it counts, so "  3 files changed" is not one.
   */
  private static final Pattern BARE_COUNT = Pattern.compile(
      "^\\s*(\\d{1,4})\\s+((?:local |background |remote )?(?:shells?|agents?|tasks?|bash(?:es)?|monitors?))\\s*$");
  private static final Pattern COUNT_SEGMENT = Pattern.compile("^(\\d{1,4})\\s+([A-Za-z][A-Za-z ]*?)\\s*$");

  private LineRules() {}

  static List<ParsedEvent.PrUrl> prUrls(String row) {
    if (!row.contains("://")) {
      return List.of();
    }
    List<ParsedEvent.PrUrl> out = new ArrayList<>(1);
    collect(GITHUB, Platform.GITHUB, row, out);
    collect(GITLAB, Platform.GITLAB, row, out);
    collect(BITBUCKET, Platform.BITBUCKET, row, out);
    collect(AZURE, Platform.AZURE_DEVOPS, row, out);
    return out;
  }

  private static void collect(Pattern p, Platform platform, String row, List<ParsedEvent.PrUrl> out) {
    Matcher m = p.matcher(row);
    while (m.find()) {
      int n = Integer.parseInt(m.group(1));
      if (n > 0) {
        out.add(new ParsedEvent.PrUrl(n, m.group(), platform));
      }
    }
  }

  static ParsedEvent.Intent intent(String row) {
    Matcher m = INTENT.matcher(row);
    if (!m.find()) {
      return null;
    }
    String text = m.group(1);
    Matcher t = INTENT_TITLE.matcher(text);
    if (t.find() && !t.group(1).isBlank()) {
      return new ParsedEvent.Intent(t.group(1).strip(), t.group(2).strip());
    }
    return new ParsedEvent.Intent(text, null);
  }

  static ParsedEvent.PlanFile planFile(String row) {
    if (!row.contains("plans/")) {
      return null;
    }
    Matcher m = PLAN_FILE.matcher(row);
    return m.find() ? new ParsedEvent.PlanFile(m.group(1)) : null;
  }

  static ParsedEvent.UsageLimit usageLimit(String row) {
    Matcher m = USAGE_LIMIT.matcher(row);
    if (!m.find()) {
      return null;
    }
    int pct = Integer.parseInt(m.group(1));
    if (pct > 100) {
      return null;
    }
    LimitType type = m.group(2).toLowerCase(Locale.ROOT).equals("weekly") ? LimitType.WEEKLY : LimitType.SESSION;
    return new ParsedEvent.UsageLimit(pct, type);
  }

  static ParsedEvent.UsageExhausted usageExhausted(String row) {
    if (!row.contains("usage")) {
      return null;
    }
    Matcher m = USAGE_EXHAUSTED.matcher(row);
    return m.find() ? new ParsedEvent.UsageExhausted(m.group(1) == null ? null : m.group(1).strip()) : null;
  }

  static ParsedEvent.AgentSessionConflict sessionConflict(String row) {
    if (!row.contains("ession ID")) {
      return null;
    }
    Matcher m = SESSION_IN_USE.matcher(row);
    if (m.find()) {
      return new ParsedEvent.AgentSessionConflict(m.group(), ConflictKind.IN_USE);
    }
    m = SESSION_NOT_FOUND.matcher(row);
    return m.find() ? new ParsedEvent.AgentSessionConflict(m.group(), ConflictKind.NOT_FOUND) : null;
  }

  /** Cheap test for {@link #modeLine}'s bare-count form: a digit first on the row. */
  static boolean mayBeBareCount(String row) {
    int i = 0;
    while (i < row.length() && row.charAt(i) == ' ') {
      i++;
    }
    return i < row.length() && row.charAt(i) >= '0' && row.charAt(i) <= '9';
  }

  /**
   * A mode line's sub-task count: "›› task · 3 local agents" gives (3, "local agents"); a mode
   * line without a count gives count -1 (the caller turns that into 0 after a positive count).
   * Null when the row is not a mode line.
   */
  static ParsedEvent.ActiveSubtasks modeLine(String row) {
    Matcher m = MODE_LINE.matcher(row);
    if (!m.find()) {
      Matcher bare = BARE_COUNT.matcher(row);
      return bare.find() ? new ParsedEvent.ActiveSubtasks(Integer.parseInt(bare.group(1)), bare.group(2)) : null;
    }
    String segments = m.group(1) == null ? m.group(2) : m.group(1) + " · " + m.group(2);
    for (String seg : segments.split("·")) {
      Matcher c = COUNT_SEGMENT.matcher(seg.strip());
      if (c.find()) {
        return new ParsedEvent.ActiveSubtasks(Integer.parseInt(c.group(1)), c.group(2));
      }
    }
    return new ParsedEvent.ActiveSubtasks(0, "");
  }
}
