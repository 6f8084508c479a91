package dev.agentdesk.terminal.parser;

import static dev.agentdesk.terminal.parser.ParserFixtures.parseScreen;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Screens of the real Gemini CLI 0.61.0 (made here: real-gemini/README.md) through the parser: its
 * framed dialogs as numbered menus with their real options, and its limit and error messages whole.
 * The same moments run live against the real CLI in the agents module's RealGeminiTest.
 */
class RealGeminiScreensTest {
  private static List<String> screen(String name) throws IOException {
    try (InputStream in = RealGeminiScreensTest.class.getResourceAsStream("real-gemini/" + name + ".txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  private static <T extends ParsedEvent> List<T> events(String name, Class<T> type) throws IOException {
    return parseScreen(Agent.GEMINI, screen(name)).stream().filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void theTrustDialogIsItsQuestionWithItsThreeOptions() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("trust", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Do you trust the files in this folder?");
    assertThat(p.get(0).numbered()).isTrue();
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Trust folder (repo)", true, false, null),
        new ParsedEvent.ChoiceOption(2, "Trust parent folder (gx)", false, false, null),
        new ParsedEvent.ChoiceOption(3, "Don't trust", false, true, null));
    assertThat(events("trust", ParsedEvent.RateLimit.class)).isEmpty();
  }

  @Test
  void theShellApprovalIsItsQuestionWithItsThreeOptions() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("shell", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Allow execution of [Shell]?");
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Allow once", true, false, null),
        new ParsedEvent.ChoiceOption(2, "Allow for this session", false, false, null),
        new ParsedEvent.ChoiceOption(3, "No, suggest changes", false, true, "esc"));
  }

  @Test
  void withTheApprovalAboveTheTrustDialogTheApprovalIsReported() throws IOException {
    // the prompt ran behind the trust dialog; Gemini gives the keys to the upper dialog
    List<ParsedEvent.ChoicePrompt> p = events("trust-behind-approval", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Allow execution of [Shell]?");
    assertThat(p.get(0).options()).extracting(ParsedEvent.ChoiceOption::label)
        .containsExactly("Allow once", "No, suggest changes");
    // answered, the trust dialog is what is left
    assertThat(events("trust-after-approval", ParsedEvent.ChoicePrompt.class)).extracting(ParsedEvent.ChoicePrompt::title)
        .containsExactly("Do you trust the files in this folder?");
  }

  @Test
  void theUsageLimitDialogIsAQuestionAndNotYetTheLimit() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("e429-dialog", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Usage limit reached for gemini-2.5-flash.");
    assertThat(p.get(0).options()).extracting(ParsedEvent.ChoiceOption::label).containsExactly("Keep trying", "Stop");
    assertThat(events("e429-dialog", ParsedEvent.RateLimit.class)).isEmpty();
  }

  @Test
  void theHard429IsOneRateLimitWithItsWholeWrappedText() throws IOException {
    assertThat(events("e429", ParsedEvent.RateLimit.class)).extracting(ParsedEvent.RateLimit::matchedText).containsExactly(
        "[API Error: Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests,"
            + " limit: 0, model: gemini-2.5-flash] Please wait and try again later. To increase your limits, request a"
            + " quota increase through AI Studio, or switch to another /auth method");
    assertThat(events("e429", ParsedEvent.ApiError.class)).isEmpty();
  }

  @Test
  void a400IsAnApiErrorWithItsStatus() throws IOException {
    assertThat(events("e400", ParsedEvent.ApiError.class)).containsExactly(new ParsedEvent.ApiError("gemini-api-error",
        "[API Error: {\"error\":{\"code\":400,\"message\":\"Request contains an invalid argument.\","
            + "\"status\":\"INVALID_ARGUMENT\"}}]", ErrorKind.UNKNOWN));
  }

  /**
   * CI caught the real Gemini's 400 on screen and never reported (RealGeminiTest): a read ended
   * with the cursor still on the error row, so it was left to read once done; the next read
   * scrolled the history up, which drops moved rows from Gemini's changed rows, and the row left
   * to read was looked for where it had been. The row left to read moves with the scroll.
   */
  @Test
  void anErrorRowLeftHalfReadIsReadWhereTheScrollMovedIt() {
    ParsingTerminal t = new ParsingTerminal(Agent.GEMINI, 140, 12, new ManualClock(1_000));
    StringBuilder history = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      history.append(" > earlier prompt number ").append(i).append("\r\n");
    }
    String error = "\u2715 [API Error: {\"error\":{\"code\":400,\"message\":\"Request contains an invalid argument.\","
        + "\"status\":\"INVALID_ARGUMENT\"}}]";
    List<ParsedEvent> events = new java.util.ArrayList<>();
    events.addAll(feed(t, history + error));
    assertThat(events).filteredOn(ParsedEvent.ApiError.class::isInstance).as("the row is still being written").isEmpty();
    events.addAll(feed(t, "\r\n\r\n\u2139 This request failed. Press F12 for diagnostics.\r\n\r\n"));
    assertThat(events).filteredOn(ParsedEvent.ApiError.class::isInstance).extracting(e -> ((ParsedEvent.ApiError) e)
        .matchedText()).containsExactly("[API Error: {\"error\":{\"code\":400,\"message\":\"Request contains an"
            + " invalid argument.\",\"status\":\"INVALID_ARGUMENT\"}}]");
  }

  private static List<ParsedEvent> feed(ParsingTerminal t, String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return t.output(b, 0, b.length);
  }
}
