package dev.agentdesk.agents;

import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.TurnSignal;
import dev.agentdesk.transcripts.TurnSignals;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a transcript as it grows and keeps the {@link TurnState}. What a line says about the turn
 * is the provider's business: its adapter turns each line into {@link TurnSignal}s
 * ({@link LiveTranscripts#signals}), and this class only folds them (the canonical records do not
 * carry them: a stop reason is a live signal, not history). The transcript's content is always
 * read through the transcripts module. One thread reads ({@link #poll}, the service's poller,
 * without the agent's monitor); any thread may look at what the last poll published
 * ({@link #published}, {@link #offset}).
 */
final class TurnReader {
  private static final int MAX_READ = 4 << 20;

  private final Path file;
  private final Provider provider;
  private TurnSignals signals;
  /** Written by the polling thread only; volatile so that snapshots on other threads see it. */
  private volatile long offset;
  /** The state after the last {@link #poll}, for other threads. */
  private volatile TurnState published = TurnState.NONE;
  /** Pending tool calls: id → {question text (question tools) or null, tool name, line}. */
  private final Map<String, String[]> pending = new LinkedHashMap<>();
  private TurnState.Phase phase = TurnState.Phase.UNKNOWN;
  private long lastUserSeq;
  private long seq;

  /** A reader of {@code provider}'s signals; null for a file history does not read (no line is an entry). */
  TurnReader(Path file, Provider provider) {
    this.file = file;
    this.provider = provider;
    this.signals = signalsOf(provider);
  }

  /**
   * A reader for a file whose provider is told from its first lines (Claude Code's when they say
   * nothing yet), for the corpus tests that only have files.
   */
  TurnReader(Path file) {
    this(file, Transcripts.detectProvider(file));
  }

  private static TurnSignals signalsOf(Provider provider) {
    return provider == null ? (line, out) -> false : LiveTranscripts.signals(provider);
  }

  Path file() {
    return file;
  }

  /** Bytes of the file read so far (whole lines and a partial last line). */
  long offset() {
    return offset;
  }

  /** Reads what was appended since the last call; true when at least one line was read. */
  boolean poll() {
    byte[] bytes;
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long len = f.length();
      if (len < offset) { // rewritten: start over
        offset = 0;
        pending.clear();
        phase = TurnState.Phase.UNKNOWN;
        signals = signalsOf(provider);
      }
      if (len == offset) {
        return false;
      }
      int n = (int) Math.min(MAX_READ, len - offset);
      bytes = new byte[n];
      f.seek(offset);
      f.readFully(bytes);
    } catch (IOException e) {
      return false;
    }
    // Only whole lines: a last line without its newline is a write in progress.
    int end = bytes.length;
    while (end > 0 && bytes[end - 1] != '\n') {
      end--;
    }
    if (end == 0 && bytes.length < MAX_READ) {
      return false;
    }
    offset += end == 0 ? bytes.length : end;
    boolean any = false;
    for (String line : new String(bytes, 0, end == 0 ? bytes.length : end, StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        any |= accept(line);
      }
    }
    published = state();
    return any;
  }

  /** The turn state as of the last {@link #poll}: safe to read from any thread. */
  TurnState published() {
    return published;
  }

  /** The turn state from the lines folded so far; for the polling thread (and tests that fold lines). */
  TurnState state() {
    String[] q = null;
    long qSeq = 0;
    int others = 0;
    for (String[] p : pending.values()) {
      if (p[0] != null) {
        q = p;
        qSeq = Long.parseLong(p[2]);
      } else {
        others++;
      }
    }
    return new TurnState(phase, q == null ? null : q[0], q == null ? null : q[1], qSeq, others, lastUserSeq, seq);
  }

  /** Folds one line in; false when it is not one of the format's entries. Package-visible for the corpus measurement. */
  boolean accept(String line) {
    long at = seq + 1; // the line's number, should it be an entry
    if (!signals.read(line, s -> fold(s, at))) {
      return false;
    }
    seq = at;
    return true;
  }

  private void fold(TurnSignal signal, long line) {
    if (signal instanceof TurnSignal.Prompted) {
      lastUserSeq = line;
      pending.clear();
      phase = TurnState.Phase.IN_TURN;
    } else if (signal instanceof TurnSignal.Working) {
      phase = TurnState.Phase.IN_TURN;
    } else if (signal instanceof TurnSignal.ToolCalled c) {
      pending.put(c.callId(), new String[] {c.question(), c.tool(), Long.toString(line)});
      phase = TurnState.Phase.IN_TURN;
    } else if (signal instanceof TurnSignal.ToolAnswered a) {
      pending.remove(a.callId());
      phase = TurnState.Phase.IN_TURN; // the model answers the result next
    } else if (signal instanceof TurnSignal.Replied r) {
      // Text with no call open: the model has spoken, and whether more follows is not written
      // down; thinking alone changes nothing.
      if (!pending.isEmpty()) {
        phase = TurnState.Phase.IN_TURN;
      } else if (r.hasText()) {
        phase = TurnState.Phase.UNKNOWN;
      }
    } else if (signal instanceof TurnSignal.TurnEnded e) {
      if (e.closesCalls()) {
        pending.clear();
      }
      phase = TurnState.Phase.TURN_ENDED;
    }
  }
}
