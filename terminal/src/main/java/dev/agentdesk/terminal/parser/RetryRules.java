package dev.agentdesk.terminal.parser;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Claude Code's retry line, shown in place of its spinner while it waits to resend a failed
 * request: {@code "✻ API error · retrying in 4s · attempt 1/10"}, {@code "✻ 401 invalid
 * x-api-key · retrying in 4s · attempt 4/10"}. A retried 429 is a rate limit for that long; any
 * other failure is an API error classified by its status. The line is the agent telling what
 * happens, so it is reported although the agent is still busy.
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

  /** The retry line without its countdown: one key per attempt. */
  static String attemptKey(String row) {
    return row.strip().replaceAll("retrying in \\d+\\s*s", "retrying");
  }
}
