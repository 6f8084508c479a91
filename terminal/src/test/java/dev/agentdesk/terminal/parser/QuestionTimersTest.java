package dev.agentdesk.terminal.parser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.osc.OscNotification;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The silence-verified question and its guards, driven by a manual clock (no sleeping). */
class QuestionTimersTest {
  private final ManualClock clock = new ManualClock(0);
  private final OutputParser parser = new OutputParser(Agent.CLAUDE, clock);
  private final List<String> rows = new ArrayList<>();

  private List<ParsedEvent> show(String... lines) {
    List<RowChange> changed = new ArrayList<>();
    for (String l : lines) {
      rows.add(l);
      changed.add(new RowChange(rows.size() - 1, l));
    }
    return parser.onScreen(ScreenView.ofLines(rows), changed);
  }

  private List<ParsedEvent> after(long ms) {
    clock.advanceBy(ms);
    return parser.tick();
  }

  private static List<ParsedEvent.Question> questions(List<ParsedEvent> events) {
    return events.stream().filter(ParsedEvent.Question.class::isInstance).map(ParsedEvent.Question.class::cast).toList();
  }

  @Test
  void aQuestionRowIsVerifiedAfterTenSecondsOfSilence() {
    show("⏺ Should I also update the migration scripts?");
    assertThat(questions(after(9_999))).isEmpty();
    assertThat(questions(after(1))).containsExactly(
        new ParsedEvent.Question("Should I also update the migration scripts?", false, 0));
    assertThat(questions(after(20_000))).as("one-shot per turn").isEmpty();
  }

  @Test
  void aRecentStatusLineSuppressesIt() {
    show("⏺ Should I continue?");
    clock.advanceBy(5_000);
    show("✻ Thinking… (6s · esc to interrupt)");
    assertThat(questions(after(5_000))).isEmpty();
  }

  @Test
  void moreThanTenLaterChunksMakeItStale() {
    show("⏺ Should I continue?");
    for (int i = 0; i < 11; i++) {
      show("line " + i);
    }
    assertThat(questions(after(10_000))).isEmpty();
  }

  @Test
  void itMustStillBeAmongTheLastFiveRows() {
    show("⏺ Should I continue?");
    show("a", "b", "c", "d", "e");
    assertThat(questions(after(10_000))).isEmpty();
  }

  @Test
  void echoOfTypedTextIsNotAQuestion() {
    parser.onInput("why is this slow?".getBytes(), 0, 17);
    clock.advanceBy(100);
    show("> why is this slow?");
    assertThat(questions(after(10_000))).isEmpty();
  }

  @Test
  void rowsRedrawnRightAfterAResizeAreIgnored() {
    parser.onResize();
    show("⏺ Should I continue?");
    assertThat(questions(after(10_000))).isEmpty();
  }

  @Test
  void hookInstrumentedSessionsGetNoHeuristicQuestionsButKeepRawStreamOnes() {
    parser.onNotifications(List.of(new OscNotification.HookMarker(Map.of("state", "busy"))));
    show("⏺ Should I continue?");
    assertThat(questions(after(10_000))).isEmpty();
    assertThat(questions(parser.onNotifications(List.of(
        new OscNotification.DesktopNotification("Claude Code", "Claude is waiting for your input"))))).hasSize(1);
  }

  @Test
  void codeAndDiffQuestionRowsAreNotCandidates() {
    show("// what does this do?", "+ is it null?", "# FAQ: why?", "  fn main() -> Result<(), Error>?");
    assertThat(questions(after(10_000))).isEmpty();
  }

  @Test
  void inputEndsTheTurnAndTheCandidate() {
    show("⏺ Should I continue?");
    parser.onInput("\r".getBytes(), 0, 1);
    assertThat(parser.turnEpoch()).isEqualTo(1);
    assertThat(questions(after(10_000))).isEmpty();
  }

  @Test
  void lowConfidenceQuestionIsRetractedWhenTheScreenMovesOnQuietly() {
    show("⏺ Should I continue?");
    assertThat(questions(after(10_000))).hasSize(1);
    rows.clear();
    show("⏺ Going ahead with the default.");
    assertThat(after(9_000)).noneMatch(ParsedEvent.QuestionCleared.class::isInstance);
    assertThat(after(1_000)).contains(new ParsedEvent.QuestionCleared(0));
  }

  @Test
  void confidentQuestionsAreSticky() {
    parser.onNotifications(List.of(new OscNotification.DesktopNotification("Claude Code", "Claude needs your permission to use Bash")));
    show("⏺ Going ahead.");
    assertThat(after(60_000)).noneMatch(ParsedEvent.QuestionCleared.class::isInstance);
  }

  @Test
  void genericAttentionNotificationIsNoQuestion() {
    assertThat(parser.onNotifications(List.of(
        new OscNotification.DesktopNotification("Claude Code", "Claude Code needs your attention")))).isEmpty();
  }

  @Test
  void shellGoesBusyOnOutputAndIdleAfterSilence() {
    assertThat(show("building…")).contains(new ParsedEvent.ShellState(ShellActivity.BUSY));
    assertThat(after(OutputParser.SHELL_IDLE_MS - 1)).isEmpty();
    assertThat(after(1)).contains(new ParsedEvent.ShellState(ShellActivity.IDLE));
  }

  @Test
  void aRenderedPickerWithAnEnterToSelectFooterIsALowConfidenceQuestionAtOnce() {
    List<ParsedEvent> events = show("☐ Auth method", "", "Which auth method should the API use?", "",
        "❯ OAuth with PKCE", "  API key in a header", "  Mutual TLS", "", "Enter to select · ↑/↓ to navigate · Esc to cancel");
    assertThat(questions(events)).containsExactly(new ParsedEvent.Question("Which auth method should the API use?", false, 0));
    assertThat(after(60_000)).as("still on screen: not retracted").noneMatch(ParsedEvent.QuestionCleared.class::isInstance);
  }

  @Test
  void aNumberedChoicePromptIsNotAlsoAPickerQuestion() {
    List<ParsedEvent> events = show("Would you like to run the following command?", "", "  $ cargo test", "",
        "› 1. Yes, proceed (y)", "  2. No, and tell Codex what to do differently (esc)", "", "  Press enter to confirm or esc to cancel");
    List<ParsedEvent> settled = after(OutputParser.LINE_SETTLE_MS);
    // The cursor sits where the footer could still grow, so the menu is reported once output settles.
    assertThat(settled).hasAtLeastOneElementOfType(ParsedEvent.ChoicePrompt.class);
    assertThat(questions(events)).isEmpty();
    assertThat(questions(settled)).isEmpty();
  }

  @Test
  void hookInstrumentedSessionsReportPickersThemselves() {
    parser.onNotifications(List.of(new OscNotification.HookMarker(Map.of("state", "busy"))));
    assertThat(questions(show("Which one?", "❯ A", "  B", "Enter to select · ↑/↓ to navigate"))).isEmpty();
  }

  @Test
  void aPressEnterToContinuePauseIsNoQuestion() {
    assertThat(questions(show("Downloading the toolchain (2 of 3)", "Press Enter to continue with the setup"))).isEmpty();
    assertThat(questions(after(60_000))).isEmpty();
  }

  @Test
  void footerWordsInGrepHitsDiffsAndProseAreNoPicker() {
    List<ParsedEvent> events = show("web/picker.js:88:    hint.textContent = \"Enter to select · Esc to cancel\";",
        "+    footer: 'Enter to confirm',", "The dialog says Enter to select when it opens.");
    assertThat(questions(events)).isEmpty();
    assertThat(questions(after(60_000))).isEmpty();
  }
}

