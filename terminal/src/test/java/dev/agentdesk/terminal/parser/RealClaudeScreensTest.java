package dev.agentdesk.terminal.parser;

import static dev.agentdesk.terminal.parser.ParserFixtures.parseScreen;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Screens of the real Claude Code 2.1.328 (made here: real-claude/README.md) through the parser:
 * the first-run screens, its menus and its error and retry lines. The same moments run live
 * against the real CLI in the agents module's RealClaudeTest.
 */
class RealClaudeScreensTest {
  private static List<String> screen(String name) throws IOException {
    try (InputStream in = RealClaudeScreensTest.class.getResourceAsStream("real-claude/" + name + ".txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  private static <T extends ParsedEvent> List<T> events(String name, Class<T> type) throws IOException {
    return parseScreen(Agent.CLAUDE, screen(name)).stream().filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void theFailedConnectivityCheckSaysWhatFailed() throws IOException {
    assertThat(events("first-offline", ParsedEvent.ApiError.class)).containsExactly(
        new ParsedEvent.ApiError("claude-connect-error", "Unable to connect to Anthropic services", ErrorKind.SERVER),
        new ParsedEvent.ApiError("claude-connect-error", "Failed to connect to api.anthropic.com: ENOTFOUND",
            ErrorKind.SERVER));
  }

  @Test
  void theThemePickerIsACursorMenuWithItsSevenThemes() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("first-theme", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Choose the text style that looks best with your terminal");
    assertThat(p.get(0).numbered()).isFalse();
    assertThat(p.get(0).options()).extracting(ParsedEvent.ChoiceOption::label).containsExactly(
        "Auto (match terminal)", "Dark mode", "Light mode", "Dark mode (colorblind-friendly)",
        "Light mode (colorblind-friendly)", "Dark mode (ANSI colors only)", "Light mode (ANSI colors only)");
    assertThat(p.get(0).options()).extracting(ParsedEvent.ChoiceOption::highlighted)
        .containsExactly(true, false, false, false, false, false, false);
  }

  @Test
  void securityNotesWaitForEnter() throws IOException {
    assertThat(events("first-security", ParsedEvent.ChoicePrompt.class)).isEmpty();
    List<ParsedEvent.Question> q = events("first-security", ParsedEvent.Question.class);
    assertThat(q).extracting(ParsedEvent.Question::promptText).containsExactly("Security notes: Press Enter to continue");
  }

  @Test
  void theTrustDialogIsItsQuestionWithItsTwoRealOptions() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("first-trust", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Quick safety check: Is this a project you created or one you trust?");
    assertThat(p.get(0).numbered()).isFalse();
    assertThat(p.get(0).dismissKey()).isEqualTo("cancel");
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "No, exit", true, true, null),
        new ParsedEvent.ChoiceOption(2, "Yes, I trust this folder", false, false, null));
  }

  @Test
  void askUserQuestionKeepsTheOptionAfterTheRuleAndDescriptionsApart() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("ask", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Which color should the button be?");
    assertThat(p.get(0).numbered()).isTrue();
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Red", true, false, null, "A red button"),
        new ParsedEvent.ChoiceOption(2, "Blue", false, false, null, "A blue button"),
        new ParsedEvent.ChoiceOption(3, "Type something.", false, false, null, null),
        new ParsedEvent.ChoiceOption(4, "Chat about this", false, false, null, null));
  }

  @Test
  void theBashPermissionPromptHasItsFourOptions() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("bash", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Do you want to proceed?");
    assertThat(p.get(0).options()).extracting(ParsedEvent.ChoiceOption::label).containsExactly("Yes",
        "Yes, and always allow access to /tmp/demo/proj from this project",
        "Yes, and switch to auto mode · auto mode handles these prompts for you", "No");
    assertThat(p.get(0).amendKey()).isEqualTo("amend");
  }

  @Test
  void theWritePromptKeepsItsKeyHintApart() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("write", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Do you want to create notes.md?");
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Yes", true, false, null),
        new ParsedEvent.ChoiceOption(2, "Yes, and switch to accept edits (auto-approve file edits and common file commands)"
            + " for this session", false, false, "shift+tab"),
        new ParsedEvent.ChoiceOption(3, "No", false, true, null));
  }

  @Test
  void aRetryIsReportedWhileClaudeWaits() throws IOException {
    List<ParsedEvent.ApiError> e = events("retry1", ParsedEvent.ApiError.class);
    assertThat(e).extracting(ParsedEvent.ApiError::matchedText).containsExactly("API error · retrying in 1s · attempt 1/10");
    assertThat(RetryRules.match("✻ 401 invalid x-api-key · retrying in 4s · attempt 4/10"))
        .isEqualTo(new ParsedEvent.ApiError("claude-api-retry", "401 invalid x-api-key · retrying in 4s · attempt 4/10",
            ErrorKind.AUTH));
    assertThat(RetryRules.match("✶ 429 rate limited · retrying in 8s · attempt 2/10"))
        .isEqualTo(new ParsedEvent.RateLimit("claude_retrying", "429 rate limited · retrying in 8s · attempt 2/10", 8000L));
  }

  @Test
  void aHard429IsARateLimitWithItsWholeText() throws IOException {
    assertThat(events("e429", ParsedEvent.RateLimit.class)).extracting(ParsedEvent.RateLimit::matchedText).containsExactly(
        "API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit");
    assertThat(events("e429", ParsedEvent.ApiError.class)).isEmpty();
  }

  @Test
  void serverErrorsAreReadWholeAcrossClaudesOwnWrap() throws IOException {
    assertThat(events("e529", ParsedEvent.ApiError.class)).containsExactly(new ParsedEvent.ApiError("claude-api-error",
        "API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment. If it "
            + "persists, check your inference gateway (127.0.0.1:18901).", ErrorKind.SERVER));
    assertThat(events("e500", ParsedEvent.ApiError.class)).extracting(ParsedEvent.ApiError::matchedText).containsExactly(
        "API Error: 500 Internal server error. This is a server-side issue, usually temporary — try again in a moment. "
            + "If it persists, check your inference gateway (127.0.0.1:18901).");
  }

  @Test
  void anInvalidKeyIsAnAuthError() throws IOException {
    assertThat(events("e401", ParsedEvent.ApiError.class)).containsExactly(
        new ParsedEvent.ApiError("claude-auth-error", "Invalid API key · Fix external API key", ErrorKind.AUTH));
  }
}
