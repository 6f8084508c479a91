package dev.agentdesk.terminal.parser;

import static dev.agentdesk.terminal.parser.ParserFixtures.allRows;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Screens of the real Codex CLI 0.169.0 (made here: real-codex/README.md) through the parser: the
 * first-run trust screen, the approval prompt, the ends of a turn after a 429 and after a 500, a
 * retry, a stream and an interrupt. The same moments run live against the real CLI in the agents
 * module's RealCodexTest.
 */
class RealCodexScreensTest {
  private static List<String> screen(String name) throws IOException {
    try (InputStream in = RealCodexScreensTest.class.getResourceAsStream("real-codex/" + name + ".txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  /**
   * The screen as one chunk, then a second of silence: a menu whose footer sits in the last rows
   * (the fixture's cursor is under the last row) is read once the output settles, as it is live.
   */
  private static <T extends ParsedEvent> List<T> events(String name, Class<T> type) throws IOException {
    ScreenView s = ScreenView.ofLines(screen(name));
    ManualClock clock = new ManualClock(0);
    OutputParser parser = new OutputParser(Agent.CODEX, clock);
    List<ParsedEvent> all = new ArrayList<>(parser.onScreen(s, allRows(s)));
    clock.advanceBy(1_000);
    all.addAll(parser.tick());
    return all.stream().filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void theTrustScreenIsItsQuestionWithItsTwoOptionsAnsweredByArrowsAndEnter() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("first-trust", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Trust this folder?");
    // "1" does nothing on this screen (2 acts at once): the answer moves the marker and presses Enter
    assertThat(p.get(0).numbered()).isFalse();
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Trust and continue", true, false, null),
        new ParsedEvent.ChoiceOption(2, "Back to Agent Command Center", false, false, null));
  }

  @Test
  void inAGitWorktreeTheTrustScreenNotesTheRepositoryRootAndAsksTheSame() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("first-trust-worktree", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Trust this folder?");
    assertThat(p.get(0).options()).extracting(ParsedEvent.ChoiceOption::label)
        .containsExactly("Trust and continue", "Back to Agent Command Center");
    assertThat(events("first-trust-worktree", ParsedEvent.Question.class)).isEmpty();
  }

  @Test
  void theApprovalPromptAsksWhetherToRunTheCommandTheReasonIsDetail() throws IOException {
    List<ParsedEvent.ChoicePrompt> p = events("approval", ParsedEvent.ChoicePrompt.class);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).title()).isEqualTo("Would you like to run the following command?");
    assertThat(p.get(0).numbered()).isTrue();
    assertThat(p.get(0).dismissKey()).isEqualTo("cancel");
    assertThat(p.get(0).options()).containsExactly(
        new ParsedEvent.ChoiceOption(1, "Yes, proceed", true, false, "y"),
        new ParsedEvent.ChoiceOption(2, "Yes, and don't ask again for commands that start with `echo made > "
            + "shell_made.txt`", false, false, "p"),
        new ParsedEvent.ChoiceOption(3, "No, and tell Codex what to do differently", false, true, "esc"));
  }

  @Test
  void a429AfterItsRetriesIsARateLimitWithItsWholeText() throws IOException {
    assertThat(events("e429", ParsedEvent.RateLimit.class)).containsExactly(new ParsedEvent.RateLimit(
        "codex_retry_limit", "exceeded retry limit, last status: 429 Too Many Requests", null));
    assertThat(events("e429", ParsedEvent.ApiError.class)).isEmpty();
  }

  @Test
  void a500AfterItsRetriesIsAServerErrorWithItsWholeText() throws IOException {
    // the screen still shows the earlier 429 above it
    assertThat(events("e500", ParsedEvent.ApiError.class)).containsExactly(new ParsedEvent.ApiError("codex-api-error",
        "We\u2019re currently experiencing high demand, which may cause temporary errors.", ErrorKind.SERVER));
  }

  @Test
  void aRetryIsAStatusLineAndARetryEventWithItsAttemptAndItsCauseNotTheEndOfTheTurn() throws IOException {
    assertThat(events("retry500", ParsedEvent.StatusLine.class)).extracting(ParsedEvent.StatusLine::taskName)
        .containsExactly("Reconnecting... 1/5");
    // the same words as the end of the turn, on the "└" row under "Reconnecting…": a retry, not the end yet
    assertThat(events("retry500", ParsedEvent.ApiError.class)).containsExactly(new ParsedEvent.ApiError("codex-api-retry",
        "Reconnecting... 1/5: We\u2019re currently experiencing high demand, which may cause temporary errors.",
        ErrorKind.SERVER));
    assertThat(events("retry500", ParsedEvent.RateLimit.class)).isEmpty();
  }

  @Test
  void eachAttemptIsReportedOnceWhicheverOfItsTwoRowsIsDrawnFirst() {
    ManualClock clock = new ManualClock(0);
    OutputParser parser = new OutputParser(Agent.CODEX, clock);
    List<String> prompt = List.of("  >_ OpenAI Codex (v0.169.0)", "", "\u203a now x-500", "");
    String why = "  \u2514 We\u2019re currently experiencing high demand, which may cause temporary errors.";
    List<String> composer = List.of("", "\u203a Ask Codex to do anything", "", "  gpt-scripted default \u00b7 /tmp/demo/proj");
    List<String> got = new ArrayList<>();
    int frame = 0;
    // the status row alone first (no cause yet), then its cause, then the count and the clock move on
    for (List<String> middle : List.of(
        List.of("\u2022 Reconnecting... 1/5 (0s \u2022 esc to interrupt)", ""),
        List.of("\u2022 Reconnecting... 1/5 (0s \u2022 esc to interrupt)", why),
        List.of("\u25e6 Reconnecting... 1/5 (1s \u2022 esc to interrupt)", why),
        List.of("\u2022 Reconnecting... 2/5 (1s \u2022 esc to interrupt)", why),
        List.of("\u2022 Recovered after a reconnect.", "  Worked for <1s"))) {
      List<String> rows = new ArrayList<>(prompt);
      rows.addAll(middle);
      rows.addAll(composer);
      ScreenView s = ScreenView.ofLines(rows);
      clock.advanceBy(500);
      frame++;
      for (ParsedEvent e : parser.onScreen(s, allRows(s))) {
        if (e instanceof ParsedEvent.ApiError a) {
          got.add(frame + ": " + a.matchedText());
        }
      }
    }
    // the first attempt as soon as its cause is drawn under the (unchanged) status row
    assertThat(got).containsExactly(
        "2: Reconnecting... 1/5: We\u2019re currently experiencing high demand, which may cause temporary errors.",
        "4: Reconnecting... 2/5: We\u2019re currently experiencing high demand, which may cause temporary errors.");
  }

  @Test
  void aStreamAndAnInterruptRaiseNoQuestionNoMenuAndNoError() throws IOException {
    for (String name : List.of("streaming", "interrupted")) {
      assertThat(events(name, ParsedEvent.ChoicePrompt.class)).as(name).isEmpty();
      assertThat(events(name, ParsedEvent.Question.class)).as(name).isEmpty();
      assertThat(events(name, ParsedEvent.ApiError.class)).as(name).isEmpty();
      assertThat(events(name, ParsedEvent.RateLimit.class)).as(name).isEmpty();
    }
  }
}
