package dev.agentdesk.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One notification per state change: latching, the debounce window, new turns, PRs, exits. */
class ChangeDetectorTest {
  private final ChangeDetector d = new ChangeDetector(5_000);

  private static SessionView view(boolean awaiting, boolean busy, String limit, String error, List<String> prs,
      boolean exited, Integer code, long turn) {
    return new SessionView("s1", "#/terminals/s1", "claude", "claude", awaiting, awaiting ? "Proceed?" : null, busy,
        limit, error, prs, exited, code, turn);
  }

  private static SessionView awaiting(boolean on, long turn) {
    return view(on, false, null, null, List.of(), false, null, turn);
  }

  private List<EventKind> kinds(SessionView v, long at) {
    return d.observe(v, at).stream().map(ChangeDetector.Change::kind).toList();
  }

  @Test
  void aLatchedQuestionFiresOnce() {
    assertThat(kinds(awaiting(true, 0), 0)).containsExactly(EventKind.AWAITING_INPUT);
    assertThat(kinds(awaiting(true, 0), 1_000)).isEmpty();
    assertThat(kinds(awaiting(true, 0), 60_000)).isEmpty();
  }

  @Test
  void flappingWithinTheWindowIsDebouncedAndANewTurnIsNew() {
    assertThat(kinds(awaiting(true, 0), 0)).containsExactly(EventKind.AWAITING_INPUT);
    assertThat(kinds(awaiting(false, 0), 1_000)).isEmpty();
    assertThat(kinds(awaiting(true, 0), 3_000)).as("rose again 2 s after it fell").isEmpty();
    assertThat(kinds(awaiting(false, 0), 4_000)).isEmpty();
    assertThat(kinds(awaiting(true, 0), 9_500)).as("down for 5.5 s: a new question").containsExactly(EventKind.AWAITING_INPUT);
    assertThat(kinds(awaiting(false, 1), 9_600)).isEmpty();
    assertThat(kinds(awaiting(true, 1), 9_700)).as("the user answered: a new turn").containsExactly(EventKind.AWAITING_INPUT);
  }

  @Test
  void aLimitFiresOnItsRisingEdgeAndADifferentOneInALaterTurn() {
    SessionView limited = view(false, false, "Claude AI usage limit reached|1750708800", null, List.of(), false, null, 0);
    assertThat(kinds(limited, 0)).containsExactly(EventKind.RATE_LIMIT);
    assertThat(kinds(limited, 10_000)).isEmpty();
    SessionView sameTextLater = view(false, false, "Claude AI usage limit reached|1750708800", null, List.of(), false, null, 2);
    assertThat(kinds(sameTextLater, 20_000)).isEmpty();
    SessionView next = view(false, false, "Claude AI usage limit reached|1750726800", null, List.of(), false, null, 2);
    assertThat(kinds(next, 30_000)).containsExactly(EventKind.RATE_LIMIT);
    // It resets, the session resumes (a new turn), and the same limit is read again off the screen:
    // the same limit, not news; a later limit with another reset time is.
    SessionView clear = view(false, false, null, null, List.of(), false, null, 3);
    assertThat(kinds(clear, 40_000)).isEmpty();
    assertThat(kinds(view(false, false, "Claude AI usage limit reached|1750726800", null, List.of(), false, null, 3),
        50_000)).isEmpty();
    assertThat(kinds(clear, 60_000)).isEmpty();
    assertThat(kinds(view(false, false, "Claude AI usage limit reached|1750744800", null, List.of(), false, null, 4),
        70_000)).containsExactly(EventKind.RATE_LIMIT);
  }

  @Test
  void errorsPrsTurnsAndExits() {
    assertThat(kinds(view(false, true, null, null, List.of(), false, null, 0), 0)).isEmpty();
    assertThat(kinds(view(false, false, null, null, List.of(), false, null, 0), 100)).containsExactly(EventKind.TURN_FINISHED);
    assertThat(kinds(view(false, false, null, "API Error: 500", List.of(), false, null, 0), 200)).containsExactly(EventKind.API_ERROR);
    assertThat(kinds(view(false, false, null, "API Error: 529", List.of(), false, null, 0), 300)).as("debounced").isEmpty();
    assertThat(kinds(view(false, false, null, "API Error: 500", List.of("https://github.com/o/r/pull/1"), false, null, 0), 9_000))
        .containsExactly(EventKind.API_ERROR, EventKind.PR_OPENED);
    assertThat(kinds(view(false, false, null, "API Error: 500", List.of("https://github.com/o/r/pull/1"), false, null, 0), 9_100))
        .isEmpty();
    assertThat(kinds(view(false, false, null, "API Error: 500", List.of("https://github.com/o/r/pull/1"), true, 2, 0), 9_200))
        .containsExactly(EventKind.EXIT_ERROR);
  }

  @Test
  void aTurnThatEndsInAnApiErrorIsThatErrorNotAlsoAFinishedTurn() {
    // Claude offline: its start-up check fails while it is busy, then it goes quiet and exits.
    assertThat(kinds(view(false, true, null, null, List.of(), false, null, 0), 0)).isEmpty();
    assertThat(kinds(view(false, true, null, "Unable to connect to Anthropic services", List.of(), false, null, 0), 100))
        .containsExactly(EventKind.API_ERROR);
    assertThat(kinds(view(false, false, null, "Unable to connect to Anthropic services", List.of(), false, null, 0), 200))
        .as("idle after the error: no turn finished").isEmpty();
    assertThat(kinds(view(false, false, null, "Unable to connect to Anthropic services", List.of(), true, 1, 0), 300))
        .containsExactly(EventKind.EXIT_ERROR);
    // A retried error the agent works on past finishes as a turn.
    assertThat(kinds(view(false, true, null, "API Error: 529 · retrying", List.of(), false, null, 5), 20_000))
        .containsExactly(EventKind.API_ERROR);
    assertThat(kinds(view(false, true, null, "API Error: 529 · retrying", List.of(), false, null, 5), 21_000)).isEmpty();
    assertThat(kinds(view(false, false, null, "API Error: 529 · retrying", List.of(), false, null, 5), 22_000))
        .containsExactly(EventKind.TURN_FINISHED);
    // The next turn, without an error of its own, finishes as a turn does (the old error text stays).
    assertThat(kinds(view(false, true, null, "Unable to connect to Anthropic services", List.of(), false, null, 1), 9_000))
        .isEmpty();
    assertThat(kinds(view(false, false, null, "Unable to connect to Anthropic services", List.of(), false, null, 1), 9_100))
        .containsExactly(EventKind.TURN_FINISHED);
  }

  @Test
  void stoppingASessionIsNotAnErrorExit() {
    assertThat(kinds(view(false, false, null, null, List.of(), true, 137, 0), 0)).isEmpty();
    d.forget("s1");
    assertThat(kinds(view(false, false, null, null, List.of(), true, 0, 0), 0)).isEmpty();
    d.forget("s1");
    assertThat(kinds(view(false, false, null, null, List.of(), true, 1, 0), 0)).containsExactly(EventKind.EXIT_ERROR);
  }

  @Test
  void plainTerminalsGetNoFinishedTurns() {
    SessionView busy = new SessionView("t1", "#/terminals/t1", "bash", null, false, null, true, null, null, List.of(),
        false, null, 0);
    SessionView idle = new SessionView("t1", "#/terminals/t1", "bash", null, false, null, false, null, null, List.of(),
        false, null, 0);
    assertThat(kinds(busy, 0)).isEmpty();
    assertThat(kinds(idle, 100)).isEmpty();
  }
}
