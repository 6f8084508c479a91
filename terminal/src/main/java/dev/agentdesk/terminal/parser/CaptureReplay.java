package dev.agentdesk.terminal.parser;

import dev.agentdesk.terminal.tcap.CaptureRecord;
import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays a capture through a {@link ParsingTerminal} with time taken from the capture: before each
 * record the clock steps through every timer deadline up to the record's timestamp, so silence
 * timers fire exactly when they would have live; after the last record it advances a tail so
 * pending timers fire. Input records drive echo suppression and turn changes as live input does.
 */
public final class CaptureReplay {
  /** One replayed event and when it happened (milliseconds since the capture started). */
  public record TimedEvent(long atMs, ParsedEvent event) {}

  /** Receives replayed events in order. */
  @FunctionalInterface
  public interface Sink {
    void accept(long atMs, ParsedEvent event) throws IOException;
  }

  private CaptureReplay() {}

  /** Replays every record of {@code reader}, then {@code tailMs} of silence. */
  public static void replay(TcapReader reader, Agent agent, int cols, int rows, long tailMs, Sink sink) throws IOException {
    if (tailMs < 0) {
      throw new IllegalArgumentException("tail must not be negative: " + tailMs);
    }
    ManualClock clock = new ManualClock(0);
    ParsingTerminal term = new ParsingTerminal(agent, cols, rows, clock);
    long last = 0;
    for (CaptureRecord r = reader.next(); r != null; r = reader.next()) {
      long at = r.elapsedMillis();
      runTimers(term, clock, at, sink);
      clock.advanceTo(at);
      byte[] p = r.payload();
      List<ParsedEvent> events = r.direction() == Direction.OUTPUT ? term.output(p, 0, p.length) : term.input(p, 0, p.length);
      for (ParsedEvent e : events) {
        sink.accept(clock.nowMillis(), e);
      }
      last = at;
    }
    runTimers(term, clock, last + tailMs, sink);
    clock.advanceTo(last + tailMs);
    for (ParsedEvent e : term.tick()) {
      sink.accept(clock.nowMillis(), e);
    }
  }

  /** Replays and collects. */
  public static List<TimedEvent> replayAll(TcapReader reader, Agent agent, int cols, int rows, long tailMs) throws IOException {
    List<TimedEvent> out = new ArrayList<>();
    replay(reader, agent, cols, rows, tailMs, (at, e) -> out.add(new TimedEvent(at, e)));
    return out;
  }

  private static void runTimers(ParsingTerminal term, ManualClock clock, long until, Sink sink) throws IOException {
    for (long due = term.parser().nextDeadline(); due >= 0 && due <= until; due = term.parser().nextDeadline()) {
      clock.advanceTo(due);
      List<ParsedEvent> fired = term.tick();
      for (ParsedEvent e : fired) {
        sink.accept(clock.nowMillis(), e);
      }
      if (fired.isEmpty() && term.parser().nextDeadline() == due) {
        // A deadline that fires nothing and does not move would spin; the next record moves it.
        break;
      }
    }
  }
}
