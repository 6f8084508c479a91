package dev.agentdesk.terminal.parser;

import static dev.agentdesk.terminal.parser.ParserFixtures.allRows;
import static dev.agentdesk.terminal.parser.ParserFixtures.parseScreen;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.session.Key;
import dev.agentdesk.terminal.session.PendingChoice;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Screens of the real OpenCode 1.18.33 (made here: real-opencode/README.md) through the parser:
 * its permission prompt, the status row while it retries a 429 or a 500, busy and idle. The same
 * moments run live against the real CLI in the agents module's RealOpenCodeTest.
 */
class RealOpenCodeScreensTest {
  private static List<String> screen(String name) throws IOException {
    try (InputStream in = RealOpenCodeScreensTest.class.getResourceAsStream("real-opencode/" + name + ".txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  private static <T extends ParsedEvent> List<T> events(String name, Class<T> type) throws IOException {
    return parseScreen(Agent.OPENCODE, screen(name)).stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The screens one after the other through one parser, as a session sees them. */
  private static List<ParsedEvent> sequence(String... names) throws IOException {
    OutputParser p = new OutputParser(Agent.OPENCODE, new ManualClock(0));
    List<ParsedEvent> out = new ArrayList<>();
    for (String n : names) {
      ScreenView s = ScreenView.ofLines(screen(n));
      out.addAll(p.onScreen(s, allRows(s)));
    }
    return out;
  }

  @Test
  void thePermissionPromptIsItsRequestWithItsThreeButtons() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("permission", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Permission required: Shell command: $ echo hi > out.txt");
    assertThat(p.get(0).numbered()).isFalse();
    assertThat(p.get(0).across()).isTrue();
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Allow once", true, false, null),
        new ParsedEvent.ChoiceOption(2, "Allow always", false, false, null),
        new ParsedEvent.ChoiceOption(3, "Reject", false, true, null));
  }

  @Test
  void itsButtonsAreAnsweredWithLeftAndRightThenEnter() throws IOException {
    ParsedEvent.ChoicePrompt c = events("permission", ParsedEvent.ChoicePrompt.class).get(0);
    PendingChoice pc = new PendingChoice(c.title(), c.options().stream()
        .map(o -> new PendingChoice.Option(o.index(), o.label(), o.destructive(), o.description(), o.highlighted()))
        .toList(), null, null, false, true);
    assertThat(pc.keysFor(1)).containsExactly(Key.ENTER);
    assertThat(pc.keysFor(3)).containsExactly(Key.RIGHT, Key.RIGHT, Key.ENTER);
  }

  @Test
  void theRetried429IsOneRateLimitWithItsWholeMessage() throws IOException {
    List<ParsedEvent> e = sequence("retry429-first", "retry429");
    assertThat(e).filteredOn(ParsedEvent.RateLimit.class::isInstance).containsExactly(
        new ParsedEvent.RateLimit("opencode_retrying", "Rate limit reached for requests", null));
    assertThat(e).noneMatch(ParsedEvent.ApiError.class::isInstance);
    assertThat(events("retry429", ParsedEvent.RateLimit.class)).containsExactly(
        new ParsedEvent.RateLimit("opencode_retrying", "Rate limit reached for requests", 9000L));
  }

  @Test
  void theRetried500IsOneServerErrorWithItsWholeMessage() throws IOException {
    assertThat(events("retry500", ParsedEvent.ApiError.class)).containsExactly(new ParsedEvent.ApiError(
        "opencode-api-retry", "The server had an error while processing your request. Sorry about that!",
        ErrorKind.SERVER));
    assertThat(events("retry500", ParsedEvent.RateLimit.class)).isEmpty();
  }

  @Test
  void busyAndIdleScreensRaiseNoQuestionLimitOrError() throws IOException {
    for (String n : List.of("busy", "idle")) {
      assertThat(parseScreen(Agent.OPENCODE, screen(n))).noneMatch(e -> e instanceof ParsedEvent.ChoicePrompt
          || e instanceof ParsedEvent.Question || e instanceof ParsedEvent.RateLimit || e instanceof ParsedEvent.ApiError);
    }
  }

  @Test
  void anotherAgentsParserDoesNotReadOpenCodesButtons() throws IOException {
    assertThat(parseScreen(Agent.CLAUDE, screen("permission"))).noneMatch(ParsedEvent.ChoicePrompt.class::isInstance);
  }
}
