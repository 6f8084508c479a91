package dev.agentdesk.terminal.parser;

import static dev.agentdesk.terminal.parser.ParserFixtures.parseLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Reset moments read from the limit texts agents really print, seen at a fixed moment. */
class ResetTimesTest {
  /** Tuesday 1 Dec 2026, 13:20:00 UTC (08:20 in New York). */
  private static final ZonedDateTime SEEN = ZonedDateTime.of(2026, 12, 1, 13, 20, 0, 0, ZoneId.of("UTC"));

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '¦', value = {
      // Claude Code, today's form and the older sentence: the zone in brackets decides.
      "  ⎿  You've hit your limit · resets 3pm (America/New_York)¦2026-12-01T20:00:00Z",
      "You’ve hit your session limit · resets 4:50am (Europe/Rome)¦2026-12-02T03:50:00Z",
      "  ⎿  Claude usage limit reached. Your limit will reset at 9am (America/Chicago).¦2026-12-01T15:00:00Z",
      // the raw API form carries epoch seconds
      "Claude AI usage limit reached|1750708800¦2025-06-23T20:00:00Z",
      // durations: from the moment the text was seen
      "■ You've hit your usage limit. Upgrade to Pro or try again in 2 days 3 hours.¦2026-12-03T16:20:00Z",
      "Sorry, you've hit a rate limit. Please try again in 2 hours.¦2026-12-01T15:20:00Z",
      // a clock time already past today is tomorrow's; no zone means the seen zone (UTC here)
      "You've hit your limit · resets 1pm¦2026-12-02T13:00:00Z",
      "■ You’ve hit your usage limit. Visit the settings or try again at 2:51 PM.¦2026-12-01T14:51:00Z",
      // seconds and a date
      "You've hit your limit · resets 1:20:05pm (UTC)¦2026-12-01T13:20:05Z",
      "You've hit your weekly limit · resets Dec 5, 3pm (America/New_York)¦2026-12-05T20:00:00Z",
      "You've hit your weekly limit · resets Jan 2 at 9am (UTC)¦2027-01-02T09:00:00Z",
      // the usage-exhausted event's bare reset text
      "8pm (Europe/Madrid)¦2026-12-01T19:00:00Z",
      // and as auto-resume sees it (notify's SessionView.limitText of a usage-exhausted terminal)
      "out of usage · resets 8pm (Europe/Madrid)¦2026-12-01T19:00:00Z",
  })
  void readsTheResetMoment(String text, String expected) {
    assertThat(ResetTimes.resetAt(text, SEEN)).as(text).contains(Instant.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "API Error: 429 rate_limit_error. Please try again later.",
      "You've hit your limit",
      "resets 3 (America/New_York)",
      "You've hit your limit · resets 13pm (UTC)",
      "You've hit your limit · resets 3pm (Mars/Olympus_Mons)",
      "resets 25:00",
  })
  void textWithoutAUsableResetGivesNone(String text) {
    assertThat(ResetTimes.resetAt(text, SEEN)).as(text).isEmpty();
  }

  @Test
  void theRateLimitEventCarriesTheResetText() {
    // What a consumer has is the event's matched text: the reset must survive the match.
    var events = parseLine(Agent.CLAUDE, "  ⎿  You've hit your limit · resets 3pm (America/New_York)");
    var limit = events.stream().filter(ParsedEvent.RateLimit.class::isInstance).map(ParsedEvent.RateLimit.class::cast)
        .findFirst().orElseThrow();
    assertThat(ResetTimes.resetAt(limit.matchedText(), SEEN)).contains(Instant.parse("2026-12-01T20:00:00Z"));
  }

  @Test
  void aResetDrawnTheSecondItIsSeenIsNotTomorrow() {
    assertThat(ResetTimes.resetAt("resets 1:19:59pm (UTC)", SEEN)).contains(Instant.parse("2026-12-01T13:19:59Z"));
  }
}
