package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.parser.Agent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every SET and CLEAR path of the reducer, without a PTY. */
class SessionReducerTest {
  private static final PendingChoice MENU = new PendingChoice("Proceed?",
      List.of(new PendingChoice.Option(1, "Yes", false), new PendingChoice.Option(2, "No", true)), "cancel", null);

  private SessionState s = SessionState.initial("id-1", Agent.CLAUDE);
  private boolean lastCleared;

  private SessionState apply(SessionSignal... signals) {
    for (SessionSignal sig : signals) {
      SessionReducer.Reduction r = SessionReducer.reduce(s, sig);
      s = r.state();
      lastCleared = r.choiceCleared();
    }
    return s;
  }

  @Test
  void lowConfidenceQuestionIsSetAndRetracted() {
    apply(new SessionSignal.QuestionAsked("Continue?", false, 0));
    assertThat(s.awaitingInput()).isTrue();
    assertThat(s.question()).isEqualTo("Continue?");
    apply(new SessionSignal.QuestionRetracted(0));
    assertThat(s.awaitingInput()).isFalse();
    assertThat(s.question()).isNull();
  }

  @Test
  void confidentQuestionIgnoresRetractionAndLowConfidenceOverwrites() {
    apply(new SessionSignal.QuestionAsked("needs your permission", true, 0),
        new SessionSignal.QuestionRetracted(0), new SessionSignal.QuestionAsked("Other?", false, 0));
    assertThat(s.awaitingInput()).isTrue();
    assertThat(s.questionConfident()).isTrue();
    assertThat(s.question()).isEqualTo("needs your permission");
    apply(new SessionSignal.UserInput(1));
    assertThat(s.awaitingInput()).isFalse();
    assertThat(s.turnEpoch()).isEqualTo(1);
  }

  @Test
  void questionAndRetractionFromAnOlderTurnAreIgnored() {
    apply(new SessionSignal.UserInput(3));
    apply(new SessionSignal.QuestionAsked("Stale?", false, 2));
    assertThat(s.awaitingInput()).isFalse();
    apply(new SessionSignal.QuestionAsked("Fresh?", false, 3), new SessionSignal.QuestionRetracted(2));
    assertThat(s.awaitingInput()).as("a retraction from turn 2 cannot clear turn 3's question").isTrue();
    apply(new SessionSignal.HookState(HookMarker.State.AWAITING, "Old hook?", 2));
    assertThat(s.question()).isEqualTo("Fresh?");
  }

  @Test
  void retractionNeverClearsAMenu() {
    apply(new SessionSignal.ChoiceShown(MENU), new SessionSignal.QuestionRetracted(0));
    assertThat(s.choicePrompt()).isEqualTo(MENU);
    assertThat(s.awaitingInput()).isTrue();
  }

  @Test
  void menuIsClearedByInputDisappearanceReplacementAndExitEachReported() {
    apply(new SessionSignal.ChoiceShown(MENU));
    assertThat(s.question()).isEqualTo("Proceed?");
    apply(new SessionSignal.UserInput(1));
    assertThat(lastCleared).isTrue();
    assertThat(s.choicePrompt()).isNull();

    apply(new SessionSignal.ChoiceShown(MENU), new SessionSignal.ChoiceGone());
    assertThat(lastCleared).isTrue();
    assertThat(s.awaitingInput()).isFalse();

    PendingChoice other = new PendingChoice("Overwrite?", MENU.options(), null, null);
    apply(new SessionSignal.ChoiceShown(MENU), new SessionSignal.ChoiceShown(other));
    assertThat(lastCleared).as("replacement").isTrue();
    assertThat(s.choicePrompt()).isEqualTo(other);

    PendingChoice moreDetail = new PendingChoice("Overwrite?", MENU.options(), "cancel", "amend");
    apply(new SessionSignal.ChoiceShown(moreDetail));
    assertThat(lastCleared).as("the same menu redrawn with its footer is an update").isFalse();

    apply(new SessionSignal.Exited(0));
    assertThat(lastCleared).isTrue();
    assertThat(s.choicePrompt()).isNull();
    assertThat(s.exited()).isTrue();
    apply(new SessionSignal.ChoiceShown(MENU));
    assertThat(s.choicePrompt()).as("nothing is set after exit").isNull();
  }

  @Test
  void idleIsHeldBackWhileSubtasksRun() {
    apply(new SessionSignal.Shell(true), new SessionSignal.Subtasks(2), new SessionSignal.Shell(false));
    assertThat(s.busy()).isTrue();
    apply(new SessionSignal.Subtasks(0), new SessionSignal.Shell(false));
    assertThat(s.busy()).isFalse();
  }

  @Test
  void hookStatesSetAndClear() {
    apply(new SessionSignal.QuestionAsked("Low?", false, 0), new SessionSignal.HookState(HookMarker.State.BUSY, null, 0));
    assertThat(s.hookInstrumented()).isTrue();
    assertThat(s.busy()).isTrue();
    assertThat(s.awaitingInput()).as("protocol busy clears a pending question").isFalse();
    apply(new SessionSignal.HookState(HookMarker.State.AWAITING, "Ship it?", 0));
    assertThat(s.questionConfident()).isTrue();
    apply(new SessionSignal.HookState(HookMarker.State.IDLE, null, 0));
    assertThat(s.busy()).isFalse();
    assertThat(s.awaitingInput()).as("idle does not answer the question").isTrue();
    apply(new SessionSignal.Suggestions(List.of("A", "B")), new SessionSignal.HookBlocked());
    assertThat(s.suggestions()).isEmpty();
    assertThat(s.busy()).isTrue();
  }

  @Test
  void rateLimitRunsOutOnTheClockAndUsageIsTracked() {
    apply(new SessionSignal.RateLimited(5_000L, "429"));
    assertThat(s.rateLimitedAt(4_999)).isTrue();
    apply(new SessionSignal.Tick(4_999));
    assertThat(s.rateLimitedUntilMs()).isEqualTo(5_000L);
    apply(new SessionSignal.Tick(5_000));
    assertThat(s.rateLimitedUntilMs()).isNull();
    apply(new SessionSignal.Usage(85, "weekly"), new SessionSignal.UsageExhausted("8pm (Europe/Madrid)"));
    assertThat(s.usageExhausted()).isTrue();
    assertThat(s.usagePercentage()).isEqualTo(100);
    apply(new SessionSignal.Usage(3, "session"));
    assertThat(s.usageExhausted()).as("a fresh lower usage report means the quota came back").isFalse();
  }

  @Test
  void pullRequestsAreKeptOnceInOrderAndErrorsReplaceEachOther() {
    apply(new SessionSignal.PullRequest("u1"), new SessionSignal.PullRequest("u2"), new SessionSignal.PullRequest("u1"),
        new SessionSignal.ApiError("500", "server"), new SessionSignal.ApiError("401", "auth"),
        new SessionSignal.Intent("Reading", "Auth"), new SessionSignal.SessionIdReset("id-2"));
    assertThat(s.prUrls()).containsExactly("u1", "u2");
    assertThat(s.lastApiError()).isEqualTo("401");
    assertThat(s.lastApiErrorKind()).isEqualTo("auth");
    assertThat(s.intent()).isEqualTo("Reading");
    assertThat(s.sessionId()).isEqualTo("id-2");
  }
}
