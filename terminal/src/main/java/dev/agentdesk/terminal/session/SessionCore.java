package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.osc.OscNotification;
import dev.agentdesk.terminal.osc.OscScanner;
import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.OutputParser;
import dev.agentdesk.terminal.parser.ParsedEvent;
import dev.agentdesk.terminal.parser.ParsingTerminal;
import dev.agentdesk.terminal.parser.ShellActivity;
import dev.agentdesk.terminal.vt.LogLine;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The single-threaded heart of a session: output chunks go through the parsing terminal (raw OSC
 * scan, VT engine, chrome cutoff, output parser) — the same path {@code agentdesk term parse}
 * replays captures through; user input, resizes and clock ticks go there too; every resulting
 * event is reported and folded into {@link SessionState} by {@link SessionReducer}.
 *
 * <p>It never reads a real clock or sleeps. Every call carries the session-clock time, and the
 * parser's clock reads that time, so a live session and a capture replay with the same timestamps
 * make the same decisions. Timers are deadlines: {@link #tick} fires every deadline at or before
 * "now" in time order, each at its own deadline time, so results do not depend on how often or
 * how late ticks come — only that a tick runs before the next chunk (every call starts with one).
 *
 * <p>Busy/idle is decided here, not by the parser, because its window depends on the agent
 * (500 ms for a shell, 2.5 s for an agent, configurable) and because hooks override it: hook busy
 * wins over silence; hook idle, a confirmed interrupted screen, or exit end it. The parser's own
 * shell-state events are therefore replaced by the ones this core emits.
 *
 * <p>Not thread-safe: the owner serialises calls.
 */
final class SessionCore {
  /** Claude's and Codex's confirmation that the user interrupted the turn. */
  private static final Pattern INTERRUPTED = Pattern.compile(
      "^\\s*(?:⎿\\s*)?Interrupted(?: by user)?\\b|^\\s*■\\s*Conversation interrupted\\b");
  /** Answered questions remembered so that a repaint of the conversation cannot raise them again. */
  private static final int ANSWERED_MEMORY = 32;

  /** Where a core's results go. */
  interface Sink {
    void emit(SessionEvent event);

    /** Bytes the session itself types into the PTY (the session-id reset). */
    void writeToPty(byte[] bytes);

    /** Lines that scrolled off the primary screen into the durable log, in order. */
    default void log(List<LogLine> lines) {}
  }

  private final SessionTiming timing;
  private final Sink sink;
  private final boolean fishShell;
  private final Supplier<String> newId;
  private final long idleMs;
  /** Hook markers are read from the raw bytes by this core's own scanner; the terminal's scanner feeds the parser. */
  private final OscScanner hooks = new OscScanner();
  private final ParsingTerminal term;
  private final OutputParser parser;
  private long now;
  private long loggedUpTo;
  private SessionState state;
  /** The parser's input turn, readable by the reader thread to stamp a chunk before processing. */
  private volatile long turn;
  private long lastRealOutputMs;
  private boolean outputBusy;
  private boolean hookBusy;
  /** The parser deadline last fired; the same deadline is not fired twice (its condition only changes with output). */
  private long parserFiredAt = Long.MIN_VALUE;
  private long lastResetMs = Long.MIN_VALUE / 2;
  private String typedEcho = "";
  private long typedAtMs = Long.MIN_VALUE / 2;
  private final Deque<String> answered = new ArrayDeque<>();
  /**
   * The menu the user just answered while it may still be on screen: until it disappears, the
   * parser can see it again (an echo or a highlight change redraws a row) and must not re-open it.
   */
  private PendingChoice resolvedChoice;

  SessionCore(String sessionId, Agent agent, int cols, int rows, SessionTiming timing, boolean fishShell, Sink sink,
      long startMs) {
    this(sessionId, agent, cols, rows, timing, fishShell, sink, startMs, () -> UUID.randomUUID().toString());
  }

  SessionCore(String sessionId, Agent agent, int cols, int rows, SessionTiming timing, boolean fishShell, Sink sink,
      long startMs, Supplier<String> newId) {
    this.timing = timing;
    this.sink = sink;
    this.fishShell = fishShell;
    this.newId = newId;
    this.idleMs = timing.idleMsFor(agent);
    this.now = startMs;
    this.term = new ParsingTerminal(agent, cols, rows, () -> now);
    this.parser = term.parser();
    this.state = SessionState.initial(sessionId, agent);
  }

  SessionState state() {
    return state;
  }

  /** See {@link SessionSpec#replaysHistory()}: call before the first output. */
  void replayingHistory() {
    parser.replayingHistory();
  }

  /** The current input turn; safe to read from any thread. */
  long turn() {
    return turn;
  }

  /** The visible screen now. */
  ScreenSnapshot screen() {
    return term.engine().snapshot();
  }

  /** Durable-log lines from sequence {@code seq} on that are still held. */
  List<LogLine> logSince(long seq) {
    return term.engine().logSince(seq);
  }

  /**
   * One chunk the child wrote.
   *
   * @param readTurn the input turn current when the chunk was read: a question in it belongs to
   *     that turn even if input was processed while the chunk waited
   */
  void output(long nowMs, byte[] chunk, long readTurn) {
    tick(nowMs);
    if (state.exited()) {
      return;
    }
    now = nowMs;
    List<OscNotification> notes = hooks.scan(chunk, 0, chunk.length);
    List<ParsedEvent> events = term.output(chunk, 0, chunk.length);
    boolean interrupted = mayConfirmInterrupt(chunk) && screenShowsInterrupt();
    if (!isEcho(nowMs, chunk)) {
      lastRealOutputMs = nowMs;
      outputBusy = true;
    }
    for (OscNotification n : notes) {
      if (n instanceof OscNotification.HookMarker h) {
        handleHook(nowMs, HookMarker.of(h.fields()), readTurn);
      }
    }
    if (interrupted) {
      hookBusy = false;
    }
    for (ParsedEvent e : events) {
      handle(nowMs, e, readTurn);
    }
    publishShell(nowMs);
    drainLog();
  }

  /** Real user input (typed text or a named key). */
  void input(long nowMs, byte[] bytes) {
    tick(nowMs);
    if (state.exited()) {
      return;
    }
    now = nowMs;
    String pendingQuestion = state.question();
    PendingChoice pendingChoice = state.choicePrompt();
    long before = parser.turnEpoch();
    List<ParsedEvent> events = term.input(bytes, 0, bytes.length);
    String typed = printable(new String(bytes, StandardCharsets.UTF_8));
    typedAtMs = nowMs;
    if (!typed.isEmpty()) {
      typedEcho = typed;
    }
    if (parser.turnEpoch() != before) {
      turn = parser.turnEpoch();
      remember(pendingQuestion);
      resolvedChoice = pendingChoice;
    }
    // The parser's own choice-cleared first, so the turn change below does not report it twice.
    for (ParsedEvent e : events) {
      handle(nowMs, e, turn);
    }
    if (parser.turnEpoch() != before) {
      apply(nowMs, new SessionSignal.UserInput(parser.turnEpoch()));
    }
  }

  void resize(long nowMs, int cols, int rows) {
    tick(nowMs);
    now = nowMs;
    for (ParsedEvent e : term.resize(cols, rows)) {
      handle(nowMs, e, turn);
    }
    drainLog();
  }

  /** Fires every deadline at or before {@code nowMs}, earliest first, each at its own time. */
  void tick(long nowMs) {
    while (!state.exited()) {
      long idleAt = outputBusy ? lastRealOutputMs + idleMs : Long.MAX_VALUE;
      long pd = parser.nextDeadline();
      long parserAt = pd < 0 || pd <= parserFiredAt ? Long.MAX_VALUE : pd;
      long limitAt = state.rateLimitedUntilMs() != null ? state.rateLimitedUntilMs() : Long.MAX_VALUE;
      long due = Math.min(idleAt, Math.min(parserAt, limitAt));
      if (due > nowMs) {
        break;
      }
      now = Math.max(now, due);
      if (due == idleAt) {
        outputBusy = false;
        publishShell(due);
      }
      if (due == limitAt) {
        apply(due, new SessionSignal.Tick(due));
      }
      if (due == parserAt) {
        parserFiredAt = due;
        for (ParsedEvent e : term.tick()) {
          handle(due, e, turn);
        }
      }
    }
    now = Math.max(now, nowMs);
  }

  void exit(long nowMs, int exitCode) {
    tick(nowMs);
    if (state.exited()) {
      return;
    }
    outputBusy = false;
    hookBusy = false;
    publishShell(nowMs);
    apply(nowMs, new SessionSignal.Exited(exitCode));
    sink.emit(new SessionEvent.Exited(nowMs, exitCode));
  }

  private void handle(long atMs, ParsedEvent e, long readTurn) {
    if (e instanceof ParsedEvent.ShellState) {
      return; // busy/idle is this core's decision (see the class comment)
    }
    sink.emit(new SessionEvent.Parsed(atMs, e, SessionEvent.Source.PARSER));
    if (e instanceof ParsedEvent.StatusLine) {
      return;
    }
    if (e instanceof ParsedEvent.AgentSessionConflict) {
      resetSessionId(atMs);
      return;
    }
    if (e instanceof ParsedEvent.Question q) {
      long epoch = Math.min(q.turnEpoch(), readTurn);
      if (!q.confident() && answered.contains(q.promptText())) {
        return; // a repaint of a question answered in an earlier turn
      }
      apply(atMs, new SessionSignal.QuestionAsked(q.promptText(), q.confident(), epoch));
      return;
    }
    SessionSignal s = ParsedSignals.toSignal(e, atMs);
    if (s instanceof SessionSignal.ChoiceShown c) {
      if (c.choice().equals(resolvedChoice)) {
        return; // the answered menu, redrawn before it goes away
      }
      resolvedChoice = null;
    } else if (s instanceof SessionSignal.ChoiceGone) {
      resolvedChoice = null;
    }
    if (s != null) {
      apply(atMs, s);
    }
  }

  private void handleHook(long atMs, HookMarker m, long readTurn) {
    if (m.state().isPresent()) {
      HookMarker.State st = m.state().get();
      hookBusy = st == HookMarker.State.BUSY;
      apply(atMs, new SessionSignal.HookState(st, m.question(), readTurn));
    }
    if (m.intent() != null) {
      apply(atMs, new SessionSignal.Intent(m.intent(), m.intentTitle()));
    }
    if (!m.suggest().isEmpty()) {
      apply(atMs, new SessionSignal.Suggestions(m.suggest()));
    }
    if (m.block()) {
      hookBusy = true;
      apply(atMs, new SessionSignal.HookBlocked());
    }
  }

  /** Writes a fresh {@code AGENTDESK_SESSION} into the PTY, at most once per cooldown. */
  private void resetSessionId(long atMs) {
    if (atMs - lastResetMs < timing.conflictCooldownMs()) {
      return;
    }
    lastResetMs = atMs;
    String previous = state.sessionId();
    String fresh = newId.get();
    String line = fishShell ? "set -gx AGENTDESK_SESSION " + fresh + "\r" : "export AGENTDESK_SESSION=" + fresh + "\r";
    apply(atMs, new SessionSignal.SessionIdReset(fresh));
    sink.emit(new SessionEvent.SessionIdReset(atMs, previous, fresh));
    sink.writeToPty(line.getBytes(StandardCharsets.US_ASCII));
  }

  /** Busy while output flows or a hook said busy; the reducer holds idle back while sub-tasks run. */
  private void publishShell(long atMs) {
    boolean busy = outputBusy || hookBusy;
    if (busy != state.busy()) {
      apply(atMs, new SessionSignal.Shell(busy));
    }
  }

  private void apply(long atMs, SessionSignal signal) {
    SessionState before = state;
    SessionReducer.Reduction r = SessionReducer.reduce(state, signal);
    state = r.state();
    if (r.choiceCleared() && !(signal instanceof SessionSignal.ChoiceGone)) {
      // ChoiceGone comes from the parser's own choice-cleared, which was reported already.
      sink.emit(new SessionEvent.Parsed(atMs, new ParsedEvent.ChoiceCleared(), SessionEvent.Source.SESSION));
    }
    if (before.busy() != state.busy()) {
      sink.emit(new SessionEvent.Parsed(atMs,
          new ParsedEvent.ShellState(state.busy() ? ShellActivity.BUSY : ShellActivity.IDLE), SessionEvent.Source.SESSION));
    }
    if (!before.equals(state)) {
      sink.emit(new SessionEvent.StateChanged(atMs, state));
    }
    if (signal instanceof SessionSignal.Subtasks && state.busy() && !outputBusy && !hookBusy) {
      publishShell(atMs); // the last sub-task finished while the screen was already quiet
    }
  }

  /** Output within the echo window that only repeats what the user typed does not make the session busy. */
  private boolean isEcho(long nowMs, byte[] chunk) {
    if (nowMs - typedAtMs >= timing.echoWindowMs()) {
      return false;
    }
    // A bare newline (the echo of Enter) or the typed text itself, nothing else.
    String out = printable(new String(chunk, StandardCharsets.UTF_8));
    return out.isEmpty() || typedEcho.contains(out);
  }

  private void drainLog() {
    long end = term.engine().logEnd();
    if (end > loggedUpTo) {
      List<LogLine> lines = term.engine().logSince(loggedUpTo);
      loggedUpTo = end;
      sink.log(lines);
    }
  }

  private void remember(String question) {
    if (question != null && !answered.contains(question)) {
      answered.addLast(question);
      if (answered.size() > ANSWERED_MEMORY) {
        answered.removeFirst();
      }
    }
  }

  /** Cheap test on the raw bytes before looking at the screen: both agents' wording has this word. */
  private static boolean mayConfirmInterrupt(byte[] chunk) {
    return new String(chunk, StandardCharsets.ISO_8859_1).contains("nterrupted");
  }

  private boolean screenShowsInterrupt() {
    List<String> lines = term.engine().snapshot().lines();
    for (int i = lines.size() - 1, seen = 0; i >= 0 && seen < 8; i--) {
      if (!lines.get(i).isBlank()) {
        seen++;
        if (INTERRUPTED.matcher(lines.get(i)).find()) {
          return true;
        }
      }
    }
    return false;
  }

  private static String printable(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    boolean esc = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 0x1b) {
        esc = true;
      } else if (esc) {
        esc = !Character.isLetter(c) && c != '~';
      } else if (c >= 0x20 && c != 0x7f) {
        sb.append(c);
      }
    }
    return sb.toString().strip();
  }
}
