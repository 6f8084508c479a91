package dev.agentdesk.terminal.parser;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.Month;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a rate or usage limit resets, read from the limit's own text. The parser's events keep the
 * raw text (spec: "never interpreted"); this is the one place that interprets it, for consumers
 * that schedule work at the reset (auto-resume). Forms understood:
 *
 * <ul>
 *   <li>a delay: "try again in 2 days 3 hours", "resets in 3h", "Retry-After: 30" (the same
 *       reading as the event's {@code retryAfterMs});
 *   <li>Claude's raw form with epoch seconds: "Claude AI usage limit reached|1762952400";
 *   <li>a clock time with an optional zone and date: "resets 3pm (America/New_York)",
 *       "resets 4:50am (Europe/Rome)", "will reset at 5pm", "try again at 2:51 PM", "resets Dec 5, 3pm (UTC)", and a bare
 *       reset text such as "8pm (Europe/Madrid)" (the usage-exhausted event's {@code resetTime}).
 *       Seconds ("3:04:27pm") are accepted too. Without a date the next such time at or after the
 *       moment the text was seen is meant; without a zone, the given default zone.
 * </ul>
 */
public final class ResetTimes {
  private static final Pattern EPOCH = Pattern.compile("usage limit reached\\|(\\d{10})\\b", Pattern.CASE_INSENSITIVE);
  private static final String MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(?:at\\s+)?";
  private static final String CLOCK = "(\\d{1,2})(?::(\\d{2}))?(?::(\\d{2}))?\\s*(am|pm|AM|PM)?";
  private static final String ZONE = "(?:\\s*\\(([A-Za-z_]+(?:/[A-Za-z_+-]+){0,2}|UTC|GMT)\\))?";
  /** "resets 3pm (Zone)", "reset at 3pm", "resets Dec 5, 3pm": after a reset word. */
  private static final Pattern AFTER_WORD = Pattern.compile(
      "(?i)\\b(?:resets?|try again)(?:\\s+at)?\\s+(?:" + MONTH + ")?" + CLOCK + ZONE);
  /** A bare reset text that starts with the time: "8pm (Europe/Madrid)". */
  private static final Pattern BARE = Pattern.compile("^\\s*(?:" + MONTH + ")?" + CLOCK + ZONE + "\\s*$");

  private ResetTimes() {}

  /**
   * The moment the limit resets, or empty when the text names none (or names an impossible time
   * or an unknown zone).
   *
   * @param text the limit message (a rate-limit event's matched text, or a usage reset text)
   * @param seenAt when the text was on screen, in the zone used when the text names none
   */
  public static Optional<Instant> resetAt(String text, ZonedDateTime seenAt) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    Matcher e = EPOCH.matcher(text);
    if (e.find()) {
      return Optional.of(Instant.ofEpochSecond(Long.parseLong(e.group(1))));
    }
    Matcher w = AFTER_WORD.matcher(text);
    if (w.find()) {
      Optional<Instant> at = clock(w, seenAt);
      if (at.isPresent()) {
        return at;
      }
    }
    Matcher b = BARE.matcher(text);
    if (b.find()) {
      Optional<Instant> at = clock(b, seenAt);
      if (at.isPresent()) {
        return at;
      }
    }
    Long delay = RetryAfter.parseMillis(text);
    return delay == null ? Optional.empty() : Optional.of(seenAt.toInstant().plusMillis(delay));
  }

  private static Optional<Instant> clock(Matcher m, ZonedDateTime seenAt) {
    String ampm = m.group(6);
    String minutes = m.group(4);
    if (ampm == null && minutes == null) {
      return Optional.empty(); // "resets 3" names no time
    }
    int hour = Integer.parseInt(m.group(3));
    int minute = minutes == null ? 0 : Integer.parseInt(minutes);
    int second = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
    if (ampm != null) {
      if (hour < 1 || hour > 12) {
        return Optional.empty();
      }
      boolean pm = ampm.equalsIgnoreCase("pm");
      hour = hour % 12 + (pm ? 12 : 0);
    }
    ZoneId zone = seenAt.getZone();
    if (m.group(7) != null) {
      try {
        zone = ZoneId.of(m.group(7));
      } catch (DateTimeException ex) {
        return Optional.empty();
      }
    }
    LocalTime time;
    try {
      time = LocalTime.of(hour, minute, second);
    } catch (DateTimeException ex) {
      return Optional.empty();
    }
    ZonedDateTime seen = seenAt.withZoneSameInstant(zone);
    if (m.group(1) != null) {
      Month month = month(m.group(1));
      int day = Integer.parseInt(m.group(2));
      for (int year = seen.getYear(); year <= seen.getYear() + 1; year++) {
        try {
          ZonedDateTime at = ZonedDateTime.of(LocalDate.of(year, month, day), time, zone);
          if (!at.isBefore(seen.minusDays(1))) {
            return Optional.of(at.toInstant());
          }
        } catch (DateTimeException ex) {
          return Optional.empty();
        }
      }
      return Optional.empty();
    }
    // The text was drawn at most a second before it was seen: a reset "now" is today, not tomorrow.
    ZonedDateTime at = ZonedDateTime.of(seen.toLocalDate(), time, zone);
    if (at.isBefore(seen.minusSeconds(1))) {
      at = ZonedDateTime.of(seen.toLocalDate().plusDays(1), time, zone);
    }
    return Optional.of(at.toInstant());
  }

  private static Month month(String abbreviation) {
    for (Month mo : Month.values()) {
      if (mo.getDisplayName(TextStyle.SHORT, Locale.ENGLISH).equalsIgnoreCase(abbreviation)) {
        return mo;
      }
    }
    throw new IllegalStateException("unmatched month " + abbreviation);
  }
}
