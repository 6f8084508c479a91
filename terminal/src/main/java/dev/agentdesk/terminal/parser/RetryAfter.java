package dev.agentdesk.terminal.parser;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a retry delay out of rate-limit text ("try again in 2 hours 5 minutes", "Retry-After: 30", "6.034s"). */
final class RetryAfter {
  private static final String UNIT = "(?:days?|d|hours?|hrs?|hr|h|minutes?|mins?|min|m|seconds?|secs?|sec|s|milliseconds?|ms)";
  /** At most 8 parts ("2 days 17 hours …"): a bounded group keeps java.util.regex's recursion shallow on long lines. */
  private static final Pattern COMPOUND = Pattern.compile(
      "(?i)(?:try again in|retry(?:ing)? in|retry after|please retry after|resets in|wait)\\s+"
          + "((?:\\d+(?:\\.\\d+)?\\s*" + UNIT + "\\b[\\s,]*(?:and\\s+)?){1,8})");
  private static final Pattern PART = Pattern.compile("(?i)(\\d+(?:\\.\\d+)?)\\s*(" + UNIT + ")\\b");
  private static final Pattern HEADER = Pattern.compile("(?i)retry-after['\"]?\\s*[:=]\\s*['\"]?(\\d{1,7})\\b");
  private static final Pattern RETRY_DELAY = Pattern.compile("(?i)\"retryDelay\"\\s*:\\s*\"(\\d+(?:\\.\\d+)?)s\"");

  private RetryAfter() {}

  /** The delay in milliseconds, or null when the text gives none. */
  static Long parseMillis(String text) {
    Matcher h = HEADER.matcher(text);
    if (h.find()) {
      return Long.parseLong(h.group(1)) * 1000L;
    }
    Matcher d = RETRY_DELAY.matcher(text);
    if (d.find()) {
      return Math.round(Double.parseDouble(d.group(1)) * 1000.0);
    }
    Matcher c = COMPOUND.matcher(text);
    if (c.find()) {
      long total = 0;
      Matcher p = PART.matcher(c.group(1));
      while (p.find()) {
        total += Math.round(Double.parseDouble(p.group(1)) * unitMillis(p.group(2).toLowerCase()));
      }
      return total;
    }
    return null;
  }

  private static double unitMillis(String unit) {
    if (unit.startsWith("ms") || unit.startsWith("milli")) {
      return 1;
    }
    if (unit.startsWith("d")) {
      return 86_400_000;
    }
    if (unit.startsWith("h")) {
      return 3_600_000;
    }
    if (unit.startsWith("m")) {
      return 60_000;
    }
    return 1000;
  }
}
