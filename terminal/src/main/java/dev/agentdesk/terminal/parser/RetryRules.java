package dev.agentdesk.terminal.parser;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Retry lines: while an agent waits to resend a failed request it says so, and that is reported
 * although the agent is still busy. Each agent's words have their own rule (Claude Code's here,
 * OpenCode's and Codex's below). Claude Code's retry line, shown in place of its spinner:
 * {@code "✻ API error · retrying in 4s · attempt 1/10"}, {@code "✻ 401 invalid x-api-key ·
 * retrying in 4s · attempt 4/10"}. A retried 429 is a rate limit for that long; any other failure
 * is an API error classified by its status.
 */
final class RetryRules {
  private static final Pattern RETRY = Pattern.compile(
      "^\\s*(?:[^\\w\\s]\\s*)?((.+?) · retrying in (\\d{1,5})\\s*s · attempt (\\d{1,3})/(\\d{1,3}))\\s*$");
  private static final Pattern STATUS = Pattern.compile("^(\\d{3})\\b");
  private static final Pattern RATE = Pattern.compile("(?i)\\b429\\b|rate.?limit|too many requests");
  private static final Pattern SERVER = Pattern.compile("(?i)overloaded|server|timed? ?out|connection");

  private RetryRules() {}

  /** A {@link ParsedEvent.RateLimit} or {@link ParsedEvent.ApiError} for a retry line, or null. */
  static ParsedEvent match(String row) {
    if (!row.contains("retrying in")) {
      return null;
    }
    Matcher m = RETRY.matcher(row);
    if (!m.matches()) {
      return null;
    }
    String text = m.group(1);
    String cause = m.group(2);
    if (RATE.matcher(cause).find()) {
      return new ParsedEvent.RateLimit("claude_retrying", text, Long.parseLong(m.group(3)) * 1000);
    }
    ErrorKind kind = ErrorKind.UNKNOWN;
    Matcher s = STATUS.matcher(cause);
    if (s.find()) {
      int status = Integer.parseInt(s.group(1));
      kind = status == 401 || status == 403 ? ErrorKind.AUTH : status >= 500 ? ErrorKind.SERVER : ErrorKind.UNKNOWN;
    } else if (SERVER.matcher(cause).find()) {
      kind = ErrorKind.SERVER;
    }
    return new ParsedEvent.ApiError("claude-api-retry", text, kind);
  }

  /**
   * OpenCode's status row while it resends a failed request (1.18): its progress blocks, the
   * provider's message whole, then {@code [retrying attempt #3]} or {@code [retrying in 11s attempt #4]},
   * then the key hint ({@code esc interrupt}, which a long message pushes onto the rows below).
   * OpenCode retries a 429 or a 5xx without end, so the attempts are one failure: the message is
   * the event's text, reported once per input turn (the caller keys it by {@link #openCodeKey}).
   */
  private static final Pattern OPENCODE_RETRY = Pattern.compile(
      "^\\s*[⬝■]{3,}\\s+(.+?)\\s+\\[retrying(?: in (\\d{1,5})s)? attempt #\\d{1,4}\\](?:\\s.*)?$");

  /** A {@link ParsedEvent.RateLimit} or {@link ParsedEvent.ApiError} for OpenCode's retry row, or null. */
  static ParsedEvent matchOpenCode(String row) {
    if (!row.contains("[retrying")) {
      return null;
    }
    Matcher m = OPENCODE_RETRY.matcher(row);
    if (!m.matches()) {
      return null;
    }
    String cause = m.group(1);
    Long retryMs = m.group(2) == null ? null : Long.parseLong(m.group(2)) * 1000;
    if (RATE.matcher(cause).find()) {
      return new ParsedEvent.RateLimit("opencode_retrying", cause, retryMs);
    }
    return new ParsedEvent.ApiError("opencode-api-retry", cause,
        SERVER.matcher(cause).find() ? ErrorKind.SERVER : ErrorKind.UNKNOWN);
  }

  /**
   * Codex's status row while it resends a failed request (0.169: {@code stream_max_retries}), over a
   * detail row with the failure as Codex words it: {@code "• Reconnecting... 1/5 (3s • esc to
   * interrupt)"} / {@code "  └ We’re currently experiencing high demand, which may cause temporary
   * errors."} (a 5xx). The two rows go once the retry gets through. The glyph blinks ({@code •} /
   * {@code ◦}) and the time counts; the attempt is the pair's identity.
   */
  private static final Pattern CODEX_RECONNECT = Pattern.compile(
      "^\\s*[•◦]\\s+(Reconnecting\\.\\.\\. \\d{1,3}/\\d{1,3})\\s*\\(.*$");
  private static final Pattern CODEX_DETAIL = Pattern.compile("^\\s*└\\s+(\\S.*?)\\s*$");
  /** Codex's own wrap of a long detail: the rest under it, four columns in. */
  private static final Pattern CODEX_DETAIL_MORE = Pattern.compile("^ {4,}(?![└•◦›■])(\\S.*?)\\s*$");
  private static final int CODEX_DETAIL_ROWS = 4;

  /** Whether {@code row} is Codex's reconnect status row. */
  static boolean isCodexReconnect(String row) {
    return row.contains("Reconnecting...") && CODEX_RECONNECT.matcher(row).matches();
  }

  /**
   * Codex's retry as one message, {@code "Reconnecting... 1/5: <detail>"}, from its status row and the
   * rows under it (the detail row and its wrap), or null when {@code rows} does not start with that pair.
   */
  static String codexRetry(java.util.List<String> rows) {
    if (rows.size() < 2) {
      return null;
    }
    Matcher status = CODEX_RECONNECT.matcher(rows.get(0));
    Matcher detail = CODEX_DETAIL.matcher(rows.get(1));
    if (!rows.get(0).contains("Reconnecting...") || !status.matches() || !detail.matches()) {
      return null;
    }
    StringBuilder text = new StringBuilder(detail.group(1));
    for (int i = 2; i < rows.size() && i < 2 + CODEX_DETAIL_ROWS; i++) {
      Matcher more = CODEX_DETAIL_MORE.matcher(rows.get(i));
      if (!more.matches()) {
        break;
      }
      text.append(' ').append(more.group(1));
    }
    return status.group(1) + ": " + text;
  }

  /**
   * The event for a message of {@link #codexRetry}: a rate limit when its detail says so, else an
   * API error classified by Codex's words (its high-demand line is a 5xx) or the status it names.
   */
  static ParsedEvent matchCodex(String retry) {
    String detail = retry.substring(retry.indexOf(": ") + 2);
    if (RATE.matcher(detail).find()) {
      return new ParsedEvent.RateLimit("codex_retrying", retry, null);
    }
    ParsedEvent.ApiError said = ApiErrorRules.match(detail, Agent.CODEX);
    ErrorKind kind = said != null ? said.errorKind() : SERVER.matcher(detail).find() ? ErrorKind.SERVER : ErrorKind.UNKNOWN;
    return new ParsedEvent.ApiError("codex-api-retry", retry, kind);
  }

  /** The retry line without its countdown: one key per attempt. */
  static String attemptKey(String row) {
    return row.strip().replaceAll("retrying in \\d+\\s*s", "retrying");
  }
}
