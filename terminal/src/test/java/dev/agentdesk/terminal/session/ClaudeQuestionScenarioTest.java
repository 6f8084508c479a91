package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ParsedEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Silence questions from the Claude stand-in in a real PTY: set by 10 s of silence, cleared by the
 * submitted answer, by exit; suppressed by a recent status line; unaffected by resize redraws.
 */
class ClaudeQuestionScenarioTest {
  private static final String QUESTION = "Should I keep the old API as a deprecated alias?";

  @Test
  void silenceQuestionSetsAwaitingAndTheSubmittedAnswerClearsIt() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "question")) {
      a.awaitComposer(QUESTION);
      assertThat(a.state().busy()).isTrue();
      a.advance(2_499);
      assertThat(a.state().busy()).as("agent idle window is 2.5 s").isTrue();
      a.advance(1);
      assertThat(a.state().busy()).isFalse();
      a.advance(7_499);
      assertThat(a.state().awaitingInput()).as("not before 10 s of silence").isFalse();
      a.advance(1);
      SessionState s = a.state();
      assertThat(s.awaitingInput()).isTrue();
      assertThat(s.question()).isEqualTo(QUESTION);
      assertThat(s.questionConfident()).isFalse();
      assertThat(a.parsed(ParsedEvent.Question.class))
          .containsExactly(new ParsedEvent.Question(QUESTION, false, 0));

      a.typeLine("yes, keep it");
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(a.state().turnEpoch()).isEqualTo(1);
      a.awaitScreen("Kept the alias");
      a.advance(30_000);
      assertThat(a.state().awaitingInput()).as("the answered question is not raised again").isFalse();
      assertThat(a.parsed(ParsedEvent.Question.class)).hasSize(1);
    }
  }

  @Test
  void aStatusLineWithinTenSecondsOfTheTimerSuppressesTheQuestion() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "question-then-spinner")) {
      a.awaitScreen(QUESTION);
      a.advance(5_000);
      // the stand-in shows a spinner 0.3 s (real time) after the question: stamped 5 s into the silence
      a.rec.awaitEvent(e -> e instanceof SessionEvent.Parsed p && p.event() instanceof ParsedEvent.StatusLine s
          && s.taskName().equals("Reconsidering"), java.time.Duration.ofSeconds(10));
      a.advance(5_000);
      a.advance(30_000);
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(a.parsed(ParsedEvent.Question.class)).isEmpty();
    }
  }

  @Test
  void resizeDuringAQuestionKeepsItAndDoesNotRaiseTheRedrawAgain() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "question")) {
      a.awaitComposer(QUESTION);
      a.advance(10_000);
      assertThat(a.state().awaitingInput()).isTrue();
      int before = a.rec.text().length();
      a.session.resize(90, 28);
      // the stand-in repaints everything on SIGWINCH, as Claude Code does
      String repaint = a.rec.awaitOutput(before, QUESTION);
      assertThat(repaint).contains("\u001b[2J");
      a.awaitComposer(QUESTION);
      assertThat(a.session.screen().cols()).isEqualTo(90);
      a.advance(10_000);
      a.advance(10_000);
      assertThat(a.state().awaitingInput()).as("the question is still the current prompt").isTrue();
      assertThat(a.parsed(ParsedEvent.Question.class)).as("a redraw in the resize grace is not a new question")
          .hasSize(1);
      assertThat(a.parsed(ParsedEvent.QuestionCleared.class)).isEmpty();
    }
  }

  @Test
  void aRepaintInTheResizeGraceIsNotANewCandidate() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "question")) {
      a.awaitComposer(QUESTION);
      a.advance(5_000);
      int before = a.rec.text().length();
      a.session.resize(120, 32);
      a.rec.awaitOutput(before, QUESTION);
      a.awaitScreen("? for shortcuts");
      a.advance(5_000);
      a.advance(30_000);
      assertThat(a.parsed(ParsedEvent.Question.class))
          .as("the resize dropped the pending candidate and its redraw is not new content").isEmpty();
    }
  }

  @Test
  void exitClearsAwaiting() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "question")) {
      a.awaitComposer(QUESTION);
      a.advance(10_000);
      assertThat(a.state().awaitingInput()).isTrue();
      a.session.kill();
      assertThat(a.session.waitFor()).isEqualTo(137);
      SessionState s = a.state();
      assertThat(s.exited()).isTrue();
      assertThat(s.awaitingInput()).isFalse();
      assertThat(s.busy()).isFalse();
      assertThat(s.exitCode()).isEqualTo(137);
    }
  }

  @Test
  void twoSessionsKeepTheirQuestionsApart() throws Exception {
    try (StandIn a = StandIn.start(Agent.CLAUDE, "claude.sh", "question");
        StandIn b = StandIn.start(Agent.CLAUDE, "claude.sh", "question")) {
      a.awaitComposer(QUESTION);
      b.awaitComposer(QUESTION);
      a.advance(10_000);
      b.advance(10_000);
      assertThat(List.of(a.state().awaitingInput(), b.state().awaitingInput())).containsExactly(true, true);
      a.typeLine("no");
      assertThat(a.state().awaitingInput()).isFalse();
      assertThat(b.state().awaitingInput()).as("input to one session never clears another").isTrue();
      b.session.kill();
      b.session.waitFor();
      assertThat(b.state().awaitingInput()).isFalse();
      assertThat(a.state().exited()).isFalse();
    }
  }
}
