package dev.agentdesk.notify;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a stream of {@link SessionView}s into state-change events, one per change:
 *
 * <ul>
 *   <li>A latched state (awaiting input, a limit) fires on its rising edge only, never again while
 *       it holds.
 *   <li>Flapping is debounced: a state that rises again less than {@code debounceMs} after it fell,
 *       in the same input turn, does not fire again (a redraw, a heuristic question retracted and
 *       raised). A new input turn ends the debounce: a question after the user answered is new.
 *   <li>A limit with different text in a later turn is a new limit even without a fall between
 *       (the terminal keeps a limit without a retry delay until it is replaced).
 *   <li>API errors fire when the text changes, at most once per debounce window; each PR URL once;
 *       a finished turn when an agent goes from busy to idle without waiting or being limited
 *       (and not right after an API error of that turn: the error is what happened); an
 *       exit when the status is an error and not one of the signals a user or agentdesk sends to
 *       stop a session (HUP, INT, KILL, TERM: 129, 130, 137, 143).
 * </ul>
 *
 * Not thread-safe: the notifier calls it under its lock.
 */
final class ChangeDetector {
  /** One event found: what, the text it carries. */
  record Change(EventKind kind, String text) {}

  private record Fired(long atMs, long turn, String text) {}

  private static final class Memory {
    SessionView last;
    final Map<EventKind, Fired> fired = new EnumMap<>(EventKind.class);
    final Map<EventKind, Long> fellAtMs = new EnumMap<>(EventKind.class);
    final Set<String> prs = new HashSet<>();
    /** The agent was busy again after the last API error of its turn (it retried, and went on). */
    boolean workedAfterError;
  }

  private static final Set<Integer> STOP_SIGNALS = Set.of(129, 130, 137, 143);

  private final long debounceMs;
  private final Map<String, Memory> sessions = new HashMap<>();

  ChangeDetector(long debounceMs) {
    this.debounceMs = debounceMs;
  }

  List<Change> observe(SessionView v, long nowMs) {
    Memory m = sessions.computeIfAbsent(v.session(), k -> new Memory());
    SessionView p = m.last;
    m.last = v;
    List<Change> out = new ArrayList<>(1);
    boolean wasAwaiting = p != null && p.awaitingInput();
    level(m, EventKind.AWAITING_INPUT, wasAwaiting, v.awaitingInput(),
        v.question() == null ? "Waiting for your input" : v.question(), false, v.turn(), nowMs, out);
    level(m, EventKind.RATE_LIMIT, p != null && p.limited(), v.limited(), v.limitText(), true, v.turn(), nowMs, out);
    if (v.apiError() != null && (p == null || !v.apiError().equals(p.apiError()))) {
      Fired f = m.fired.get(EventKind.API_ERROR);
      if (f == null || nowMs - f.atMs() >= debounceMs) {
        fire(m, EventKind.API_ERROR, v.apiError(), v.turn(), nowMs, out);
      }
    }
    for (String url : v.prUrls()) {
      if (m.prs.add(url)) {
        out.add(new Change(EventKind.PR_OPENED, url));
      }
    }
    // A turn that ended in an API error (Claude's failed start-up check, a 500 after its retries)
    // is told as that error, not also as a finished turn; one that worked on after the error (a
    // retry that succeeded) still finishes as a turn.
    Fired error = m.fired.get(EventKind.API_ERROR);
    boolean errorThisTurn = error != null && error.turn() == v.turn();
    if (errorThisTurn && p != null && p.apiError() != null && p.apiError().equals(v.apiError()) && v.busy()) {
      m.workedAfterError = true;
    }
    boolean endedInError = errorThisTurn && !m.workedAfterError;
    if (v.agent() != null && p != null && p.busy() && !v.busy() && !v.awaitingInput() && !v.limited() && !v.exited()
        && !endedInError) {
      Fired f = m.fired.get(EventKind.TURN_FINISHED);
      if (f == null || f.turn() != v.turn() || nowMs - f.atMs() >= debounceMs) {
        fire(m, EventKind.TURN_FINISHED, "", v.turn(), nowMs, out);
      }
    }
    if (v.exited() && (p == null || !p.exited()) && v.exitCode() != null && v.exitCode() != 0
        && !STOP_SIGNALS.contains(v.exitCode())) {
      fire(m, EventKind.EXIT_ERROR, "exit status " + v.exitCode(), v.turn(), nowMs, out);
    }
    return out;
  }

  private void level(Memory m, EventKind kind, boolean was, boolean is, String text, boolean newTextIsNew, long turn,
      long nowMs, List<Change> out) {
    if (was && !is) {
      m.fellAtMs.put(kind, nowMs);
      return;
    }
    if (!is) {
      return;
    }
    Fired f = m.fired.get(kind);
    if (!was) {
      Long fell = m.fellAtMs.get(kind);
      boolean flapping = f != null && f.turn() == turn && fell != null && nowMs - fell < debounceMs;
      // The same limit seen again (its text carries its reset time), e.g. read once more off the
      // scrollback after a resume, is not a new limit.
      boolean sameLimitAgain = newTextIsNew && f != null && text.equals(f.text());
      if (!flapping && !sameLimitAgain) {
        fire(m, kind, text, turn, nowMs, out);
      }
    } else if (newTextIsNew && f != null && turn > f.turn() && !text.equals(f.text())) {
      fire(m, kind, text, turn, nowMs, out);
    }
  }

  private static void fire(Memory m, EventKind kind, String text, long turn, long nowMs, List<Change> out) {
    m.fired.put(kind, new Fired(nowMs, turn, text));
    if (kind == EventKind.API_ERROR) {
      m.workedAfterError = false;
    }
    out.add(new Change(kind, text));
  }

  void forget(String session) {
    sessions.remove(session);
  }
}
