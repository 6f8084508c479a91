package dev.agentdesk.terminal.session;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The single-threaded heart of a session: it takes output chunks, user input, resizes, clock ticks
 * and the exit, runs them through output analysis, output timing, the silence detector and the
 * reducer, and emits {@link SessionEvent}s. It never reads a clock or sleeps: every call carries
 * the session-clock time, so a live session and a capture replay with the same timestamps make the
 * same decisions. Callers serialise access (PtySession holds a lock).
 *
 * <p>Timers are deadlines, not threads. {@link #tick} fires every deadline at or before "now" in
 * time order, each decided at its own deadline time, so the result does not depend on how often
 * or how late ticks come — only that a tick runs before the next chunk is processed.
 */
final class SessionCore {
  /** Where a core's results go. */
  interface Sink {
    void emit(SessionEvent event);

    /** Bytes the session itself types into the PTY (the session-id reset). */
    void writeToPty(byte[] bytes);
  }

  private final SessionTiming timing;
  private final OutputAnalyzer analyzer;
  private final Sink sink;
  private final boolean fishShell;
  private final Supplier<String> newId;
  private final SilenceDetector silence;
  private final long idleMs;
  private SessionState state;
  /** Written under the owner's lock, read without it by the reader to stamp chunks. */
  private volatile long epoch;
  private long lastRealOutputMs;
  private boolean outputBusy;
  private boolean hookBusy;
  private long lastResetMs = Long.MIN_VALUE / 2;
  private String pendingInputEcho = "";
  private long pendingInputEchoMs = Long.MIN_VALUE / 2;

  SessionCore(String sessionId, Agent agent, SessionTiming timing, boolean fishShell, OutputAnalyzer analyzer,
      Sink sink) {
    this(sessionId, agent, timing, fishShell, analyzer, sink, () -> UUID.randomUUID().toString());
  }

  SessionCore(String sessionId, Agent agent, SessionTiming timing, boolean fishShell, OutputAnalyzer analyzer,
      Sink sink, Supplier<String> newId) {
    this.timing = timing;
    this.analyzer = analyzer;
    this.sink = sink;
    this.fishShell = fishShell;
    this.newId = newId;
    this.silence = new SilenceDetector(timing);
    this.idleMs = timing.idleMsFor(agent);
    this.state = SessionState.initial(sessionId, agent);
  }

  SessionState state() {
    return state;
  }

  long epoch() {
    return epoch;
  }

  /**
   * One chunk the child wrote.
   *
   * @param readEpoch the input turn current when the chunk was read; events from it carry that turn
   */
  void output(long nowMs, byte[] chunk, long readEpoch) {
    tick(nowMs);
    if (state.exited()) {
      return;
    }
    OutputAnalyzer.Analysis a = analyzer.analyze(chunk, nowMs);
    if (!isEchoOnly(nowMs, chunk)) {
      lastRealOutputMs = nowMs;
      if (!outputBusy) {
        outputBusy = true;
      }
    }
    silence.onOutput(nowMs, a.changedRows(), a.statusLine());
    for (OutputAnalyzer.Finding f : a.findings()) {
      handle(nowMs, f, readEpoch);
    }
    publishShell(nowMs);
  }

  /** Real user input (typed text or a named key). */
  void input(long nowMs, byte[] bytes) {
    tick(nowMs);
    if (state.exited()) {
      return;
    }
    epoch++;
    String typed = new String(bytes, StandardCharsets.UTF_8);
    pendingInputEcho = printable(typed);
    pendingInputEchoMs = nowMs;
    silence.onInput(nowMs, pendingInputEcho, epoch);
    analyzer.input(bytes, nowMs);
    apply(nowMs, new SessionSignal.UserInput(epoch));
  }

  void resize(long nowMs, int cols, int rows) {
    tick(nowMs);
    silence.onResize(nowMs);
    analyzer.resize(cols, rows);
  }

  /** Fires every deadline at or before {@code nowMs}, earliest first. */
  void tick(long nowMs) {
    while (!state.exited()) {
      long idleAt = outputBusy ? lastRealOutputMs + idleMs : Long.MAX_VALUE;
      long silenceAt = silence.deadline();
      long limitAt = state.rateLimitedUntilMs() != null ? state.rateLimitedUntilMs() : Long.MAX_VALUE;
      long due = Math.min(idleAt, Math.min(silenceAt, limitAt));
      if (due > nowMs) {
        return;
      }
      if (due == idleAt) {
        outputBusy = false;
        publishShell(due);
      }
      if (due == limitAt) {
        apply(due, new SessionSignal.Tick(due));
      }
      if (due == silenceAt) {
        boolean lowConfidence = state.awaitingInput() && !state.questionConfident() && state.choicePrompt() == null;
        SilenceDetector.Outcome o = silence.fire(due, analyzer.screen(), lowConfidence);
        if (o instanceof SilenceDetector.Outcome.Raise r) {
          analyzer.emitQuestion(due, r.text(), false);
          apply(due, new SessionSignal.QuestionAsked(r.text(), false, r.epoch()));
        } else if (o instanceof SilenceDetector.Outcome.Retract r) {
          analyzer.emitQuestionCleared(due);
          apply(due, new SessionSignal.QuestionRetracted(r.epoch()));
        }
      }
    }
  }

  void exit(long nowMs, int exitCode) {
    tick(nowMs);
    if (state.exited()) {
      return;
    }
    outputBusy = false;
    hookBusy = false;
    apply(nowMs, new SessionSignal.Exited(exitCode));
    sink.emit(new SessionEvent.Exited(nowMs, exitCode));
  }

  private void handle(long nowMs, OutputAnalyzer.Finding f, long readEpoch) {
    if (f instanceof OutputAnalyzer.Finding.Signal s) {
      SessionSignal sig = s.signal();
      if (sig instanceof SessionSignal.QuestionAsked q) {
        sig = new SessionSignal.QuestionAsked(q.text(), q.confident(), readEpoch);
        if (!q.confident() && readEpoch == epoch) {
          silence.trackExternal(q.text(), readEpoch);
        }
      }
      apply(nowMs, sig);
    } else if (f instanceof OutputAnalyzer.Finding.Hook h) {
      handleHook(nowMs, HookMarker.parse(h.payload()), readEpoch);
    } else if (f instanceof OutputAnalyzer.Finding.StatusLine) {
      silence.onStatusLine(nowMs);
    } else if (f instanceof OutputAnalyzer.Finding.Interrupted) {
      hookBusy = false;
    } else if (f instanceof OutputAnalyzer.Finding.SessionConflict) {
      resetSessionId(nowMs);
    }
  }

  private void handleHook(long nowMs, HookMarker m, long readEpoch) {
    if (m.state().isPresent()) {
      silence.onHookState();
      HookMarker.State st = m.state().get();
      hookBusy = st == HookMarker.State.BUSY;
      if (st != HookMarker.State.AWAITING) {
        silence.untrack();
      }
      apply(nowMs, new SessionSignal.HookState(st, m.question(), readEpoch));
    }
    if (m.intent() != null) {
      apply(nowMs, new SessionSignal.Intent(m.intent(), m.intentTitle()));
    }
    if (!m.suggest().isEmpty()) {
      apply(nowMs, new SessionSignal.Suggestions(m.suggest()));
    }
    if (m.block()) {
      hookBusy = true;
      apply(nowMs, new SessionSignal.HookBlocked());
    }
  }

  /** Writes a fresh {@code AGENTDESK_SESSION} into the PTY, at most once per cooldown. */
  private void resetSessionId(long nowMs) {
    if (nowMs - lastResetMs < timing.conflictCooldownMs()) {
      return;
    }
    lastResetMs = nowMs;
    String previous = state.sessionId();
    String fresh = newId.get();
    String line = fishShell ? "set -gx AGENTDESK_SESSION " + fresh + "\r" : "export AGENTDESK_SESSION=" + fresh + "\r";
    sink.writeToPty(line.getBytes(StandardCharsets.US_ASCII));
    apply(nowMs, new SessionSignal.SessionIdReset(fresh));
    sink.emit(new SessionEvent.SessionIdReset(nowMs, previous, fresh));
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
    if (r.choiceCleared()) {
      analyzer.emitChoiceCleared(atMs);
    }
    if (before.busy() != state.busy()) {
      analyzer.emitShellState(atMs, state.busy());
    }
    if (!state.awaitingInput() && before.awaitingInput()) {
      silence.untrack();
    }
    if (!before.equals(state)) {
      sink.emit(new SessionEvent.StateChanged(atMs, state));
    }
    if (signal instanceof SessionSignal.Subtasks && state.busy() && !outputBusy && !hookBusy) {
      publishShell(atMs); // the last sub-task finished while the screen was already quiet
    }
  }

  /** Output that only repeats what the user just typed does not make the session busy. */
  private boolean isEchoOnly(long nowMs, byte[] chunk) {
    if (nowMs - pendingInputEchoMs >= timing.echoWindowMs() || pendingInputEcho.isEmpty()) {
      return false;
    }
    String out = printable(new String(chunk, StandardCharsets.UTF_8));
    return !out.isEmpty() && pendingInputEcho.contains(out);
  }

  private static String printable(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != 0x7f) {
        sb.append(c);
      }
    }
    return sb.toString().strip();
  }
}
