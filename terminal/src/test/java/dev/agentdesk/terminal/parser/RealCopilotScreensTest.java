package dev.agentdesk.terminal.parser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Screens of the real Copilot CLI 1.0.102 (made here: real-copilot/README.md) through the parser:
 * its framed dialogs as menus with their real options, and its retry and error lines whole
 * (without its scrollbar, across its own wrap). The same moments run live in the agents module's
 * RealCopilotTest.
 */
class RealCopilotScreensTest {
  /** The screen's events once it has settled (Copilot's dialogs leave the cursor under them). */
  private static List<ParsedEvent> parse(String name) throws IOException {
    List<String> lines;
    try (InputStream in = RealCopilotScreensTest.class.getResourceAsStream("real-copilot/" + name + ".txt")) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    ScreenView s = ScreenView.ofLines(lines);
    ManualClock clock = new ManualClock(0);
    OutputParser p = new OutputParser(Agent.COPILOT, clock);
    List<ParsedEvent> out = new ArrayList<>(p.onScreen(s, ParserFixtures.allRows(s)));
    clock.advanceBy(2_000);
    out.addAll(p.tick());
    return out;
  }

  private static <T extends ParsedEvent> List<T> events(String name, Class<T> type) throws IOException {
    return parse(name).stream().filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void theTrustDialogIsANumberedMenuWithItsThreeRealOptions() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("trust", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Do you trust the files in this folder?");
    assertThat(p.get(0).numbered()).isTrue();
    assertThat(p.get(0).dismissKey()).isEqualTo("cancel");
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Yes", true, false, null),
        new ParsedEvent.ChoiceOption(2, "Yes, and remember this folder for future sessions", false, false, null),
        new ParsedEvent.ChoiceOption(3, "No", false, true, "esc"));
    assertThat(events("trust", ParsedEvent.Question.class)).isEmpty();
  }

  @Test
  void theApprovalDialogIsAMenuWithYesAndNo() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("bash", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Do you want to run this command?");
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Yes", true, false, null),
        new ParsedEvent.ChoiceOption(2, "No, and tell Copilot what to do differently (Esc to stop)", false, true, null));
  }

  @Test
  void aHard429IsARateLimit() throws IOException {
    assertThat(events("e429", ParsedEvent.RateLimit.class)).containsExactly(new ParsedEvent.RateLimit(
        "copilot_rate_limit", "429 Number of request tokens has exceeded your per-minute rate limit", null));
    assertThat(events("e429", ParsedEvent.ApiError.class)).isEmpty();
  }

  @Test
  void a429ItGaveUpRetryingIsOneRateLimitWithItsWholeTextWithoutTheScrollbar() throws IOException {
    assertThat(events("retried-100", ParsedEvent.RateLimit.class)).extracting(ParsedEvent.RateLimit::matchedText)
        .containsExactly("429 Number of request tokens has exceeded your per-minute rate limit",
            "Failed to get response from the AI model; retried 5 times (total retry wait time: 5.35 seconds) "
                + "Last error: 429 Rate limit reached for requests");
    // At 120 columns Copilot itself breaks "Rate" and drops its "e": the rows are joined as drawn.
    assertThat(events("retried-120", ParsedEvent.RateLimit.class)).extracting(ParsedEvent.RateLimit::matchedText)
        .contains("Failed to get response from the AI model; retried 5 times (total retry wait time: 5.35 seconds) "
            + "Last error: 429 Rat limit reached for requests");
    assertThat(events("retried-120", ParsedEvent.ApiError.class)).isEmpty();
  }

  @Test
  void a500IsAServerErrorWithoutTheScrollbar() throws IOException {
    assertThat(events("e500", ParsedEvent.ApiError.class)).containsExactly(
        new ParsedEvent.ApiError("copilot-api-error", "500 Internal server error", ErrorKind.SERVER));
    assertThat(events("retried-100", ParsedEvent.ApiError.class)).extracting(ParsedEvent.ApiError::matchedText)
        .containsExactly("500 Internal server error");
  }

  @Test
  void theFramesComeOffOnlyWhereCopilotDrawsThem() {
    String bar = " ● Wrote it.          ┃";
    assertThat(CopilotFrame.plain(bar, bar.length())).isEqualTo(" ● Wrote it.");
    assertThat(CopilotFrame.plain(bar, bar.length() + 1)).isEqualTo(bar);
    assertThat(CopilotFrame.plain("│ ❯ 1. Yes   │", 14)).isEqualTo("❯ 1. Yes");
    // A bar that is not in the last column is text.
    assertThat(CopilotFrame.plain(" a ┃ b ┃", 20)).isEqualTo(" a ┃ b ┃");
  }
}
