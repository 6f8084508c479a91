package dev.agentdesk.terminal.parser;

import dev.agentdesk.terminal.osc.OscNotification;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The output parser of one terminal session. It is stateful (de-duplication, the pending
 * question candidate, the current choice prompt, the input line) and reads time only from its
 * {@link MonotonicClock}, so a replay can drive it from capture timestamps.
 *
 * <p>Feed it, in stream order: {@link #onNotifications} with the OSC sequences the raw scanner
 * found in a chunk, then {@link #onScreen} with the screen after the VT engine consumed that chunk
 * and the rows it changed; {@link #onInput} with bytes the user sent; {@link #tick} whenever time
 * passes (timers fire there). Each call returns the events it produced, in order.
 *
 * <p>Not thread-safe: one session's reader drives it.
 */
public final class OutputParser {
  /** Silence after a {@code ?} row before it is verified as a question (and before retraction). */
  public static final long QUESTION_SILENCE_MS = 10_000;
  /** A status line within this window means the agent is busy: no heuristic question. */
  static final long STATUS_SUPPRESS_MS = 10_000;
  /** More output chunks than this without a new {@code ?} row make the candidate stale. */
  static final int STALE_CHUNKS = 10;
  /** At fire time the candidate must be among this many last content rows. */
  static final int VERIFY_LAST_LINES = 5;
  /** Output this soon after input may be the PTY echoing the typed text. */
  static final long ECHO_WINDOW_MS = 500;
  /** Rows redrawn this soon after a resize are not new questions. */
  static final long RESIZE_GRACE_MS = 1_000;
  /** Claude prints a session-id failure several times while exiting; the first one counts. */
  static final long SESSION_CONFLICT_COOLDOWN_MS = LineEvents.SESSION_CONFLICT_COOLDOWN_MS;
  /** No output for this long turns the shell idle. */
  public static final long SHELL_IDLE_MS = 2_000;
  /** Rows above a changed row that may hold the head of a wrapped {@code suggest:} token. */
  private static final int SUGGEST_LOOKBACK = SuggestDetector.MAX_TRANSITIONS;
  /** How many recently read content lines are remembered to skip re-reading them after a scroll. */
  private static final int PARSED_LINES_KEPT = 512;
  /** Quiet time after which a line the cursor still sits on is read anyway. */
  static final long LINE_SETTLE_MS = 250;

  private final Agent agent;
  private final MonotonicClock clock;
  /** The single-line rules and their de-duplication state. */
  private final LineEvents lines;
  /** Content lines read this turn (bounded, oldest dropped) and whether each was a status line. */
  private final Map<String, Boolean> parsedLines = new LinkedHashMap<>(64, 0.75f, false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > PARSED_LINES_KEPT;
    }
  };

  private long turnEpoch;
  private ParsedEvent.Suggest lastSuggest;

  private ParsedEvent.ChoicePrompt currentChoice;
  private ParsedEvent.SlashMenu lastSlash;
  private final StringBuilder inputLine = new StringBuilder();
  private String lastTyped = "";
  private boolean slashMode;
  private int pendingEscape;

  private String candidate;
  private long candidateAt;
  private int staleChunks;
  private long lastInputAt = Long.MIN_VALUE / 2;
  private long resizeAt = Long.MIN_VALUE / 2;
  private boolean hookInstrumented;
  private boolean questionEmittedThisTurn;
  private boolean awaitingLowConfidence;
  private String trackedPrompt;

  private ScreenView lastScreen;
  private int lastContentEnd;
  private boolean busy;
  private long lastOutputAt = Long.MIN_VALUE / 2;
  /** Start row of a line still being written when last seen (cursor on it), or -1. */
  private int pendingRow = -1;
  private boolean newCandidateThisChunk;
  /** A choice prompt was seen while still being drawn; check again once output settles. */
  private boolean choicePending;
  /** Head row of a {@code suggest:} token the cursor was still on, or -1. */
  private int pendingSuggest = -1;
  /** The quiet period (identified by its last output time) already checked for retraction. */
  private long retractionCheckedFor = Long.MIN_VALUE;

  public OutputParser(Agent agent, MonotonicClock clock) {
    this.agent = Objects.requireNonNull(agent, "agent");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lines = new LineEvents(agent);
  }

  public Agent agent() {
    return agent;
  }

  /**
   * The program is about to redraw an earlier conversation (an agent resumed with its history):
   * until the user's first input no rate limit or API error is read from the screen, since the
   * ones it shows were reported when they happened.
   */
  public void replayingHistory() {
    lines.pastUntilNewTurn();
  }

  /** The input turn: incremented by every submitted line, bare Enter or interrupt. */
  public long turnEpoch() {
    return turnEpoch;
  }

  /** True once the session sent an OSC 7770 hook marker: heuristic questions are then suppressed. */
  public boolean hookInstrumented() {
    return hookInstrumented;
  }

  /**
   * True while a line, token or prompt is held back because the cursor was on it: the caller
   * should pass the screen again (even with no changed rows) once the cursor moves.
   */
  public boolean awaitsCursorMove() {
    return pendingRow >= 0 || pendingSuggest >= 0 || choicePending;
  }

  /** The choice prompt currently on screen, or null. */
  public ParsedEvent.ChoicePrompt currentChoice() {
    return currentChoice;
  }

  /** Events from OSC sequences found in the raw bytes of one chunk (before the VT engine). */
  public List<ParsedEvent> onNotifications(List<OscNotification> notifications) {
    if (notifications.isEmpty()) {
      return List.of();
    }
    List<ParsedEvent> out = new ArrayList<>(notifications.size());
    for (OscNotification n : notifications) {
      if (n instanceof OscNotification.ProgressReport p) {
        out.add(new ParsedEvent.Progress(p.state(), p.value()));
      } else if (n instanceof OscNotification.DesktopNotification d) {
        ParsedEvent.Question q = NotificationQuestions.classify(d.body(), turnEpoch);
        if (q != null) {
          // Raw-stream questions bypass the hook suppression: pickers only surface this way.
          out.add(q);
          // The quiet period before a retraction starts at the question, not at older output.
          lastOutputAt = Math.max(lastOutputAt, clock.nowMillis());
          awaitingLowConfidence = !q.confident();
          trackedPrompt = null;
        }
      } else if (n instanceof OscNotification.HookMarker h) {
        hookInstrumented |= h.state() != null;
      }
    }
    return out;
  }

  /** Events from one chunk of output, given the screen after it and the rows it changed. */
  public List<ParsedEvent> onScreen(ScreenView screen, List<RowChange> changed) {
    if (agent == Agent.COPILOT) {
      screen = CopilotFrame.plain(screen);
      changed = CopilotFrame.plain(changed, screen);
    }
    if (agent == Agent.PI) {
      changed = PiRedraw.newOutput(lastScreen, screen, changed);
    }
    if (agent == Agent.GEMINI) {
      // Gemini draws its dialogs and messages in frames: every rule reads the rows without them.
      screen = GeminiScreens.unboxed(screen);
      changed = GeminiScreens.unboxed(changed);
      int shift = GeminiScreens.scrolledBy(lastScreen, screen, changed);
      changed = GeminiScreens.withoutScrolled(lastScreen, changed, shift);
      if (pendingRow >= 0 && shift > 0) {
        // The row left to read moved up with the rest (or off the screen): it is no longer among
        // the changed rows, so it must be looked for where it is now.
        pendingRow = pendingRow >= shift ? pendingRow - shift : -1;
      }
    }
    long now = clock.nowMillis();
    List<ParsedEvent> out = new ArrayList<>(2);
    boolean echo = now - lastInputAt < ECHO_WINDOW_MS && changed.size() <= 1;
    if (!changed.isEmpty()) {
      lastOutputAt = now;
      if (!busy && !echo) {
        busy = true;
        out.add(new ParsedEvent.ShellState(ShellActivity.BUSY));
      }
    }
    int end = ChromeCutoff.contentEnd(agent, screen);
    boolean[] fenced = fences(screen, end);
    if (pendingRow >= 0) {
      // The line left half-written earlier comes first in the stream: read it before this chunk's rows.
      int row = pendingRow;
      int last = LogicalLines.endRow(screen, row, end);
      boolean cursorStillOn = row <= screen.cursorRow() && screen.cursorRow() <= last;
      boolean rewritten = changed.stream().anyMatch(c -> c.row() >= row && c.row() <= last);
      if (!cursorStillOn && !rewritten) {
        pendingRow = -1;
        if (row < end) {
          processLine(screen, row, end, fenced, now, out);
        }
      }
    }
    if (pendingSuggest >= 0) {
      ParsedEvent.Suggest s = SuggestDetector.detectAt(screen, pendingSuggest, end);
      if (s != null || screen.cursorRow() < pendingSuggest
          || screen.cursorRow() > pendingSuggest + SuggestDetector.MAX_TRANSITIONS) {
        pendingSuggest = -1;
      }
      emitSuggest(s, out);
    }
    Set<Integer> logicalStarts = new HashSet<>();
    for (RowChange c : changed) {
      if (c.text().isBlank()) {
        continue;
      }
      if (c.row() >= end) {
        lines.anyRow(c.text(), out);
        continue;
      }
      int start = LogicalLines.start(screen, c.row());
      if (!logicalStarts.add(start)) {
        continue;
      }
      if (start <= screen.cursorRow() && screen.cursorRow() <= LogicalLines.endRow(screen, start, end)) {
        // The program is still writing this line (the cursor is on it): read it once it is done,
        // so a line cut across reads is not parsed half-written.
        pendingRow = start;
        continue;
      }
      processLine(screen, start, end, fenced, now, out);
    }
    finishScreen(screen, changed, end, out);
    return out;
  }

  private void processLine(ScreenView screen, int start, int end, boolean[] fenced, long now, List<ParsedEvent> out) {
    {
      // A message longer than the screen is wide soft-wraps; the rules read it as one line.
      String text = LogicalLines.text(screen, start, end);
      if (text.isBlank()) {
        return;
      }
      boolean fencedRow = start < fenced.length && fenced[start];
      Boolean wasStatus = parsedLines.get(text);
      if (wasStatus != null && !fencedRow) {
        // Scrolling moves every row, so the engine reports them all as changed; a line already read
        // this turn has nothing new to say (its events were emitted or de-duplicated the first time).
        if (wasStatus) {
          lines.statusSeen(now);
        }
        return;
      }
      lines.anyRow(text, out);
      if (agent == Agent.CODEX) {
        String retry = codexRetry(screen, start, end, text);
        if (retry != null) {
          lines.codexRetry(retry, out);
        }
      }
      // Claude's messages wrap with a hanging indent: errors and limits are read whole, from their head row.
      String message = text;
      if (agent == Agent.CLAUDE || agent == Agent.COPILOT || agent == Agent.GEMINI) {
        // Gemini's continuation rows are also read alone: older releases print a notice indented under the error.
        int head = agent == Agent.GEMINI ? start : HangingIndent.head(screen, start);
        message = HangingIndent.join(screen, head, end, head == start ? text : LogicalLines.text(screen, head, end));
      }
      boolean status = lines.contentRow(text, message, fencedRow, now, out);
      if (!text.contains("ession ID")) {
        // Session-id failures repeat by design and are rate-limited by time, not by text.
        parsedLines.put(text, status);
      }
      if (!fencedRow && now - resizeAt >= RESIZE_GRACE_MS && text.indexOf('?') >= 0) {
        String q = QuestionLines.candidate(text);
        if (q != null && !(now - lastInputAt < ECHO_WINDOW_MS && lastTyped.contains(q))) {
          candidate = q;
          candidateAt = now;
          staleChunks = 0;
          newCandidateThisChunk = true;
        }
      }
    }
  }

  /**
   * Codex's retry ({@link RetryRules#codexRetry}) when this line is its status row or the detail row
   * under it: the two may be drawn in different chunks, and the detail row stays as the count moves on.
   */
  private static String codexRetry(ScreenView screen, int start, int end, String text) {
    int first;
    if (RetryRules.isCodexReconnect(text)) {
      first = start;
    } else if (start > 0 && text.stripLeading().startsWith("└")) {
      first = LogicalLines.start(screen, start - 1);
    } else {
      return null;
    }
    List<String> rows = new ArrayList<>();
    for (int r = first; r < end && rows.size() < 6; r = LogicalLines.endRow(screen, r, end) + 1) {
      rows.add(LogicalLines.text(screen, r, end));
    }
    return RetryRules.codexRetry(rows);
  }

  private void finishScreen(ScreenView screen, List<RowChange> changed, int end, List<ParsedEvent> out) {
    if (candidate != null && !newCandidateThisChunk && !changed.isEmpty()) {
      staleChunks++;
    }
    newCandidateThisChunk = false;
    if (agent != Agent.NONE && !changed.isEmpty()) {
      suggest(screen, changed, end, out);
    }
    if (!changed.isEmpty() || choicePending) {
      // A menu can only appear through a changed option row, and only vanish if one was showing.
      if (currentChoice != null || choicePending || anyChanged(changed, ChoicePromptDetector::looksLikeOption)
          || agent == Agent.CLAUDE && anyChanged(changed, CursorMenuDetector::mayBeOption)
          || agent == Agent.OPENCODE && anyChanged(changed, OpenCodePrompts::mayBePart)) {
        choice(screen, false, out);
      }
      if (anyChanged(changed, PickerPrompts::mayBeFooter)) {
        picker(screen, out);
      }
      if (slashMode) {
        ParsedEvent.SlashMenu m = SlashMenuDetector.detect(screen);
        if (m != null && !m.equals(lastSlash)) {
          out.add(m);
        }
        lastSlash = m;
      }
    }
    lastScreen = screen;
    lastContentEnd = end;
  }

  /**
   * A rendered picker with an "Enter to select"-style footer is a low-confidence question at once
   * (no silence wait: the footer says the agent waits). A numbered choice prompt already says so,
   * and a hook-instrumented session reports its questions itself.
   */
  private void picker(ScreenView screen, List<ParsedEvent> out) {
    if (currentChoice != null || choicePending || hookInstrumented || questionEmittedThisTurn) {
      return;
    }
    String prompt = PickerPrompts.prompt(screen);
    if (prompt == null && agent == Agent.CLAUDE) {
      prompt = PickerPrompts.pause(screen);
    }
    if (prompt != null) {
      out.add(new ParsedEvent.Question(prompt, false, turnEpoch));
      questionEmittedThisTurn = true;
      awaitingLowConfidence = true;
      trackedPrompt = prompt;
      candidate = null;
    }
  }

  private void choice(ScreenView screen, boolean settled, List<ParsedEvent> out) {
    ChoicePromptDetector.Detection d = ChoicePromptDetector.detect(screen, screen.rowCount(), settled, agent);
    choicePending = d.stillDrawing();
    if (choicePending) {
      return;
    }
    ParsedEvent.ChoicePrompt p = d.prompt();
    if (p != null && !p.equals(currentChoice)) {
      out.add(p);
    } else if (p == null && currentChoice != null) {
      out.add(new ParsedEvent.ChoiceCleared());
    }
    currentChoice = p;
  }

  private static boolean anyChanged(List<RowChange> changed, java.util.function.Predicate<String> test) {
    for (RowChange c : changed) {
      if (test.test(c.text())) {
        return true;
      }
    }
    return false;
  }

  private void suggest(ScreenView screen, List<RowChange> changed, int end, List<ParsedEvent> out) {
    boolean[] look = new boolean[Math.max(0, end)];
    for (RowChange c : changed) {
      for (int r = Math.max(0, c.row() - SUGGEST_LOOKBACK); r <= c.row() && r < end; r++) {
        look[r] = true;
      }
    }
    for (int r = 0; r < look.length; r++) {
      if (!look[r] || !SuggestDetector.mayStart(screen.row(r))) {
        continue;
      }
      ParsedEvent.Suggest s = SuggestDetector.detectAt(screen, r, end);
      if (s == null && r <= screen.cursorRow() && screen.cursorRow() <= r + SuggestDetector.MAX_TRANSITIONS) {
        // The cursor may be in the middle of writing it: look again once the cursor moves on.
        pendingSuggest = r;
      }
      emitSuggest(s, out);
    }
  }

  private void emitSuggest(ParsedEvent.Suggest s, List<ParsedEvent> out) {
    if (s != null && !s.equals(lastSuggest)) {
      out.add(s);
      lastSuggest = s;
    }
  }

  /** Events from bytes the user sent (keys, pastes). Enter, a digit answer or Ctrl-C end the turn. */
  public List<ParsedEvent> onInput(byte[] data, int off, int len) {
    long now = clock.nowMillis();
    lastInputAt = now;
    List<ParsedEvent> out = new ArrayList<>(1);
    String s = new String(data, off, len, StandardCharsets.UTF_8);
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (pendingEscape > 0) {
        // Skip the rest of an escape sequence (arrow keys, focus reports): CSI ends at a letter or '~'.
        if (pendingEscape == 1 && ch != '[' && ch != 'O') {
          pendingEscape = 0;
        } else if (pendingEscape == 2 && (Character.isLetter(ch) || ch == '~')) {
          pendingEscape = 0;
        } else {
          pendingEscape = 2;
        }
        continue;
      }
      if (ch == 0x1b) {
        pendingEscape = 1;
      } else if (ch == '\r' || ch == '\n' || ch == 0x03) {
        lastTyped = inputLine.toString();
        endTurn(out);
      } else if (ch == 0x7f || ch == 0x08) {
        if (inputLine.length() > 0) {
          inputLine.setLength(inputLine.length() - 1);
        }
      } else if (ch >= ' ') {
        if (currentChoice != null && ch >= '1' && ch <= '9' && inputLine.length() == 0) {
          // A digit answers the menu: the dialog is resolved.
          lastTyped = String.valueOf(ch);
          endTurn(out);
          continue;
        }
        inputLine.append(ch);
        lastTyped = inputLine.toString();
      }
    }
    slashMode = inputLine.length() > 0 && inputLine.charAt(0) == '/';
    if (!slashMode) {
      lastSlash = null;
    }
    return out;
  }

  private void endTurn(List<ParsedEvent> out) {
    turnEpoch++;
    lines.newTurn();
    parsedLines.clear();
    inputLine.setLength(0);
    candidate = null;
    questionEmittedThisTurn = false;
    awaitingLowConfidence = false;
    trackedPrompt = null;
    if (currentChoice != null) {
      out.add(new ParsedEvent.ChoiceCleared());
      currentChoice = null;
    }
  }

  /** The terminal was resized: its redraw is not new content. */
  public void onResize() {
    resizeAt = clock.nowMillis();
    candidate = null;
  }

  /** Fires due timers: shell idle, the silence-verified question and question retraction. */
  public List<ParsedEvent> tick() {
    long now = clock.nowMillis();
    List<ParsedEvent> out = new ArrayList<>(0);
    if (pendingRow >= 0 && lastScreen != null && now - lastOutputAt >= LINE_SETTLE_MS) {
      // Output stopped with the cursor still on the line: it is as complete as it gets.
      int row = pendingRow;
      pendingRow = -1;
      if (row < lastContentEnd) {
        processLine(lastScreen, row, lastContentEnd, fences(lastScreen, lastContentEnd), now, out);
      }
    }
    if (choicePending && lastScreen != null && now - lastOutputAt >= LINE_SETTLE_MS) {
      choice(lastScreen, true, out);
    }
    if (candidate != null && now - candidateAt >= QUESTION_SILENCE_MS) {
      String c = candidate;
      candidate = null;
      boolean suppressed = hookInstrumented || questionEmittedThisTurn || staleChunks > STALE_CHUNKS
          || now - lines.lastStatusAt() < STATUS_SUPPRESS_MS
          || currentChoice != null && currentChoice.title().equals(c);
      if (!suppressed && onScreenNearBottom(c)) {
        out.add(new ParsedEvent.Question(c, false, turnEpoch));
        questionEmittedThisTurn = true;
        awaitingLowConfidence = true;
        trackedPrompt = c;
      }
    }
    if (awaitingLowConfidence && now - lastOutputAt >= QUESTION_SILENCE_MS && retractionCheckedFor != lastOutputAt) {
      retractionCheckedFor = lastOutputAt;
      if (currentChoice == null && !screenShowsPrompt()) {
        out.add(new ParsedEvent.QuestionCleared(turnEpoch));
        awaitingLowConfidence = false;
        trackedPrompt = null;
      }
    }
    if (busy && now - lastOutputAt >= SHELL_IDLE_MS) {
      busy = false;
      out.add(new ParsedEvent.ShellState(ShellActivity.IDLE));
    }
    return out;
  }

  /** The earliest time at which {@link #tick} may produce something, or -1 if no timer is pending. */
  public long nextDeadline() {
    long next = Long.MAX_VALUE;
    if (pendingRow >= 0 || choicePending) {
      next = Math.min(next, lastOutputAt + LINE_SETTLE_MS);
    }
    if (candidate != null) {
      next = Math.min(next, candidateAt + QUESTION_SILENCE_MS);
    }
    if (awaitingLowConfidence && retractionCheckedFor != lastOutputAt) {
      next = Math.min(next, lastOutputAt + QUESTION_SILENCE_MS);
    }
    if (busy) {
      next = Math.min(next, lastOutputAt + SHELL_IDLE_MS);
    }
    return next == Long.MAX_VALUE ? -1 : next;
  }

  private boolean onScreenNearBottom(String question) {
    if (lastScreen == null) {
      return false;
    }
    int seen = 0;
    for (int i = lastContentEnd - 1; i >= 0 && seen < VERIFY_LAST_LINES; i--) {
      String row = lastScreen.row(i);
      if (row.isBlank()) {
        continue;
      }
      seen++;
      if (question.equals(QuestionLines.candidate(row))) {
        return true;
      }
    }
    return false;
  }

  private boolean screenShowsPrompt() {
    if (lastScreen == null) {
      return false;
    }
    if (PickerPrompts.prompt(lastScreen) != null || agent == Agent.CLAUDE && PickerPrompts.pause(lastScreen) != null) {
      return true;
    }
    if (trackedPrompt != null && onScreenNearBottom(trackedPrompt)) {
      return true;
    }
    int seen = 0;
    for (int i = lastContentEnd - 1; i >= 0 && seen < VERIFY_LAST_LINES; i--) {
      String row = lastScreen.row(i);
      if (row.isBlank()) {
        continue;
      }
      seen++;
      if (QuestionLines.candidate(row) != null) {
        return true;
      }
    }
    return false;
  }

  /** Rows inside a Markdown code fence among rows {@code [0, end)}. */
  private static boolean[] fences(ScreenView screen, int end) {
    boolean[] in = new boolean[end];
    boolean open = false;
    for (int i = 0; i < end; i++) {
      String row = screen.row(i);
      int j = 0;
      while (j < row.length() && row.charAt(j) == ' ') {
        j++;
      }
      if (row.startsWith("```", j) || row.startsWith("~~~", j)) {
        in[i] = true;
        open = !open;
      } else {
        in[i] = open;
      }
    }
    return in;
  }
}
