package dev.agentdesk.terminal.parser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Screens of the real pi 0.73.1 (made here: real-pi/README.md) through the parser: where its
 * chrome starts, its spinner, and its error lines whole. The same moments run live in the agents
 * module's RealPiTest.
 */
class RealPiScreensTest {
  private static ScreenView screen(String name) throws IOException {
    try (InputStream in = RealPiScreensTest.class.getResourceAsStream("real-pi/" + name + ".txt")) {
      return ScreenView.ofLines(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
    }
  }

  private static <T extends ParsedEvent> List<T> events(String name, Class<T> type) throws IOException {
    ScreenView s = screen(name);
    return new OutputParser(Agent.PI, new ManualClock(0)).onScreen(s, ParserFixtures.allRows(s)).stream()
        .filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void theChromeStartsAtTheRuleAboveTheEditor() throws IOException {
    ScreenView s = screen("idle");
    int end = ChromeCutoff.contentEnd(Agent.PI, s);
    assertThat(s.row(end)).startsWith("────");
    assertThat(s.row(end - 2)).contains("one two three four five six seven eight nine ten");
    assertThat(s.rows().subList(end, s.rowCount())).anySatisfy(r -> assertThat(r).startsWith("↑40 ↓20"));
  }

  @Test
  void itsSpinnerIsAStatusLineWhileItWorksAndGoneWhenItIsDone() throws IOException {
    assertThat(ScreenActivity.read(Agent.PI, screen("working"))).isEqualTo(ScreenActivity.WORKING);
    assertThat(ScreenActivity.read(Agent.PI, screen("retrying"))).isEqualTo(ScreenActivity.WORKING);
    assertThat(events("retrying", ParsedEvent.StatusLine.class)).extracting(ParsedEvent.StatusLine::taskName)
        .containsExactly("Retrying (1/3) in 1s");
    assertThat(ScreenActivity.read(Agent.PI, screen("idle"))).isEqualTo(ScreenActivity.COMPLETED);
    assertThat(ScreenActivity.read(Agent.PI, screen("bash"))).isEqualTo(ScreenActivity.COMPLETED);
  }

  @Test
  void a429IsARateLimitWithItsWholeTextAndTheGivenUpRetryToo() throws IOException {
    assertThat(events("e429", ParsedEvent.RateLimit.class)).extracting(ParsedEvent.RateLimit::patternName,
        ParsedEvent.RateLimit::matchedText).containsExactly(
        org.assertj.core.groups.Tuple.tuple("pi_rate_limit", "Error: 429 Rate limit reached for requests"),
        org.assertj.core.groups.Tuple.tuple("pi_rate_limit",
            "Error: Retry failed after 3 attempts: 429 Rate limit reached for requests"));
    assertThat(events("e429", ParsedEvent.ApiError.class)).isEmpty();
  }

  @Test
  void a500IsAServerErrorWithItsWholeText() throws IOException {
    assertThat(events("e500", ParsedEvent.ApiError.class)).containsExactly(
        new ParsedEvent.ApiError("pi-api-error", "Error: 500 Internal server error", ErrorKind.SERVER),
        new ParsedEvent.ApiError("pi-api-error", "Error: Retry failed after 3 attempts: 500 Internal server error",
            ErrorKind.SERVER));
  }

  @Test
  void anOldLimitRedrawnAfterTheNextInputIsNotANewOneButARepeatedOneIs() throws IOException {
    ScreenView s = screen("e429");
    OutputParser p = new OutputParser(Agent.PI, new ManualClock(0));
    assertThat(p.onScreen(s, ParserFixtures.allRows(s))).hasAtLeastOneElementOfType(ParsedEvent.RateLimit.class);
    byte[] typed = "again\r".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    p.onInput(typed, 0, typed.length);
    // pi redraws its history: the same rows, reported as changed
    assertThat(p.onScreen(s, ParserFixtures.allRows(s))).noneMatch(e -> e instanceof ParsedEvent.RateLimit);
    java.util.List<String> more = new java.util.ArrayList<>(s.rows());
    int at = more.indexOf(" Error: Retry failed after 3 attempts: 429 Rate limit reached for requests");
    more.add(at + 1, "");
    more.add(at + 2, " Error: Retry failed after 3 attempts: 429 Rate limit reached for requests");
    ScreenView again = ScreenView.ofLines(more);
    assertThat(p.onScreen(again, ParserFixtures.allRows(again))).filteredOn(e -> e instanceof ParsedEvent.RateLimit)
        .hasSize(1);
  }
}
