package dev.agentdesk.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.agents.AgentStatus.Evidence;
import dev.agentdesk.agents.AgentStatus.Phase;
import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.session.PendingChoice;
import dev.agentdesk.terminal.session.SessionState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every rule of ADR 0016's precedence. */
class StatusRulesTest {
  static SessionState terminal(boolean busy, boolean awaiting, String question, boolean confident, PendingChoice choice) {
    SessionState s = SessionState.initial("s", Agent.CLAUDE);
    return new SessionState(s.sessionId(), s.agent(), busy, awaiting, question, confident, choice, null, null, null,
        null, false, null, 0, null, null, List.of(), List.of(), null, null, false, 0, false, null);
  }

  static final SessionState HEURISTIC_Q = terminal(false, true, "Should I keep the alias?", false, null);
  static final TurnState ENDED = new TurnState(TurnState.Phase.TURN_ENDED, null, null, 0, 0, 3, 8);
  static final TurnState WORKING = new TurnState(TurnState.Phase.IN_TURN, null, null, 0, 1, 3, 8);

  static AgentStatus combine(SessionState t, TurnState turn, long questionSeq) {
    return StatusRules.combine(Lifecycle.RUNNING, t, turn, questionSeq, false, 0);
  }

  @Test
  void aChoiceMenuOnScreenIsAwaitingWhateverTheTranscriptSays() {
    PendingChoice menu = new PendingChoice("Do you want to proceed?", List.of(new PendingChoice.Option(1, "Yes", false),
        new PendingChoice.Option(2, "No", true)), "cancel", null);
    AgentStatus s = combine(terminal(false, true, "Do you want to proceed?", false, menu), WORKING, 8);
    assertThat(s.phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(s.evidence()).isEqualTo(Evidence.CHOICE_MENU);
    assertThat(s.choice()).isEqualTo(menu);
  }

  @Test
  void aPendingQuestionToolIsAwaitingEvenWhenTheTerminalSeesNothing() {
    TurnState asked = new TurnState(TurnState.Phase.IN_TURN, "Which database?", "AskUserQuestion", 9, 0, 3, 9);
    AgentStatus s = combine(terminal(false, false, null, false, null), asked, 0);
    assertThat(s.phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(s.evidence()).isEqualTo(Evidence.TRANSCRIPT_QUESTION);
    assertThat(s.question()).isEqualTo("Which database?");
    // a question older than the last prompt is stale
    TurnState stale = new TurnState(TurnState.Phase.IN_TURN, "Which database?", "AskUserQuestion", 2, 0, 3, 9);
    assertThat(combine(terminal(true, false, null, false, null), stale, 0).phase()).isEqualTo(Phase.BUSY);
  }

  @Test
  void aConfidentTerminalQuestionIsNotSecondGuessed() {
    AgentStatus s = combine(terminal(false, true, "Claude needs your permission to use Bash", true, null), WORKING, 8);
    assertThat(s.evidence()).isEqualTo(Evidence.TERMINAL_CONFIDENT);
  }

  @Test
  void aHeuristicQuestionIsClearedWhileTheTranscriptShowsWork() {
    AgentStatus s = combine(HEURISTIC_Q, WORKING, 8);
    assertThat(s.phase()).isEqualTo(Phase.IDLE);
    assertThat(s.clearedByTranscript()).isTrue();
    assertThat(s.question()).isNull();
  }

  @Test
  void aHeuristicQuestionIsClearedByAUserMessageWrittenAfterIt() {
    TurnState answered = new TurnState(TurnState.Phase.TURN_ENDED, null, null, 0, 0, 9, 10);
    assertThat(combine(HEURISTIC_Q, answered, 8).clearedByTranscript()).isTrue();
    // but a user message before the question does not clear it
    assertThat(combine(HEURISTIC_Q, answered, 9).phase()).isEqualTo(Phase.AWAITING_INPUT);
  }

  @Test
  void aHeuristicQuestionIsConfirmedByAnEndedTurnAndKeptWithoutTranscriptEvidence() {
    assertThat(combine(HEURISTIC_Q, ENDED, 8).evidence()).isEqualTo(Evidence.TERMINAL_CONFIRMED);
    AgentStatus none = combine(HEURISTIC_Q, TurnState.NONE, 0);
    assertThat(none.phase()).isEqualTo(Phase.AWAITING_INPUT);
    assertThat(none.evidence()).isEqualTo(Evidence.TERMINAL_HEURISTIC);
  }

  @Test
  void aQuestionTheTranscriptContradictedStaysClearedWhenTheTurnLaterEnds() {
    // the silent tool run ended and the turn with it; the stale "?" on screen is still not a question
    AgentStatus s = StatusRules.combine(Lifecycle.RUNNING, HEURISTIC_Q, ENDED, 8, true, 0);
    assertThat(s.phase()).isEqualTo(Phase.IDLE);
    assertThat(s.clearedByTranscript()).isTrue();
  }

  @Test
  void withoutAQuestionThePhaseFollowsTheTerminalAndTheLifecycle() {
    assertThat(combine(terminal(true, false, null, false, null), ENDED, 0).phase()).isEqualTo(Phase.BUSY);
    assertThat(combine(terminal(false, false, null, false, null), ENDED, 0)).isEqualTo(AgentStatus.of(Phase.IDLE));
    SessionState limited = terminal(false, false, null, false, null);
    limited = new SessionState(limited.sessionId(), limited.agent(), false, false, null, false, null, 5000L, "limit",
        null, null, false, null, 0, null, null, List.of(), List.of(), null, null, false, 0, false, null);
    assertThat(StatusRules.combine(Lifecycle.RUNNING, limited, TurnState.NONE, 0, false, 4000).phase()).isEqualTo(Phase.RATE_LIMITED);
    assertThat(StatusRules.combine(Lifecycle.RUNNING, limited, TurnState.NONE, 0, false, 6000).phase()).isEqualTo(Phase.IDLE);
    assertThat(StatusRules.combine(Lifecycle.ENDED, HEURISTIC_Q, ENDED, 0, false, 0).phase()).isEqualTo(Phase.ENDED);
    assertThat(StatusRules.combine(Lifecycle.RUNNING, null, ENDED, 0, false, 0).phase()).isEqualTo(Phase.ENDED);
    assertThat(StatusRules.combine(Lifecycle.WORKTREE_MISSING, HEURISTIC_Q, ENDED, 0, false, 0).phase())
        .isEqualTo(Phase.WORKTREE_MISSING);
  }
}
