package dev.agentdesk.terminal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.CaptureReplay;
import dev.agentdesk.terminal.parser.ManualClock;
import dev.agentdesk.terminal.parser.ParsedEvent;
import dev.agentdesk.terminal.tcap.CaptureRecord;
import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live capture of a real PTY session holds both directions with their original chunks and
 * monotonic timestamps, and replaying it through the parser (what {@code agentdesk term parse}
 * does) yields exactly the parser events the live session produced.
 */
class LiveCaptureReplayTest {

  /** A parser event with its time relative to the capture start. */
  private record Timed(long atMs, ParsedEvent event) {}

  @Test
  void replayingALiveCaptureGivesTheLiveEventSequence(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("codex-question.tcap");
    ManualClock clock = new ManualClock(50_000);
    Recorder rec = new Recorder();
    String[] argv = {"bash", StandIn.script("codex.sh").toString(), "question"};
    SessionSpec spec = SessionSpec.of(argv).withAgent(Agent.CODEX).withSize(100, 30).withClock(clock);
    long start = clock.nowMillis();
    try (PtySession s = PtySession.start(spec, List.of(rec), file)) {
      awaitScreen(s, "Postgres or SQLite?");
      clock.advanceBy(10_000);
      s.tick();
      assertThat(s.state().awaitingInput()).isTrue();
      clock.advanceBy(1_234);
      s.write("SQLite\r");
      awaitScreen(s, "Migration written for SQLite.");
      clock.advanceBy(700);
      s.write("exit now\r");
      assertThat(s.waitFor()).isZero();
      clock.advanceBy(20_000);
      s.tick();
      assertThat(s.captureFile()).isEmpty();
    }
    assertThat(rec.events()).anySatisfy(e -> assertThat(e).isInstanceOf(SessionEvent.CaptureStopped.class));

    List<CaptureRecord> records = TcapReader.readAll(file);
    assertThat(records).extracting(CaptureRecord::direction).contains(Direction.INPUT, Direction.OUTPUT);
    assertThat(records.stream().filter(r -> r.direction() == Direction.INPUT)
        .map(r -> new String(r.payload(), StandardCharsets.UTF_8)))
        .containsExactly("SQLite\r", "exit now\r");
    for (int i = 1; i < records.size(); i++) {
      assertThat(records.get(i).elapsedMicros()).isGreaterThanOrEqualTo(records.get(i - 1).elapsedMicros());
    }
    String outputBytes = records.stream().filter(r -> r.direction() == Direction.OUTPUT)
        .map(r -> new String(r.payload(), StandardCharsets.UTF_8)).reduce("", String::concat);
    assertThat(outputBytes).isEqualTo(rec.text());

    List<Timed> live = rec.events().stream()
        .filter(e -> e instanceof SessionEvent.Parsed p && p.source() == SessionEvent.Source.PARSER)
        .map(e -> new Timed(e.atMs() - start, ((SessionEvent.Parsed) e).event()))
        .toList();
    long lastRecordMs = records.get(records.size() - 1).elapsedMillis();
    try (TcapReader reader = TcapReader.open(file)) {
      List<Timed> replayed = CaptureReplay.replayAll(reader, Agent.CODEX, 100, 30, 0).stream()
          .filter(t -> !(t.event() instanceof ParsedEvent.ShellState))
          .filter(t -> t.atMs() <= lastRecordMs)
          .map(t -> new Timed(t.atMs(), t.event()))
          .toList();
      List<Timed> liveUpToLast = live.stream().filter(t -> t.atMs() <= lastRecordMs).toList();
      assertThat(liveUpToLast).as("live events").isNotEmpty()
          .anySatisfy(t -> assertThat(t.event()).isInstanceOf(ParsedEvent.Question.class));
      assertThat(replayed).isEqualTo(liveUpToLast);
    }
  }

  @Test
  void captureCanBeStartedAndStoppedOnceAtATimeAndNotAfterExit(@TempDir Path dir) throws Exception {
    try (PtySession s = PtySession.start(SessionSpec.of("sh", "-c", "read x; echo got $x"))) {
      s.startCapture(dir.resolve("a.tcap"));
      assertThatThrownBy(() -> s.startCapture(dir.resolve("b.tcap")))
          .isInstanceOfSatisfying(SessionException.class,
              e -> assertThat(e.reason()).isEqualTo(SessionException.Reason.CAPTURE_ACTIVE));
      s.write("hi\r");
      s.waitFor();
      assertThat(s.stopCapture()).isEmpty();
      assertThat(TcapReader.readAll(dir.resolve("a.tcap"))).extracting(CaptureRecord::direction)
          .contains(Direction.INPUT, Direction.OUTPUT);
      assertThatThrownBy(() -> s.startCapture(dir.resolve("c.tcap"))).isInstanceOfSatisfying(SessionException.class,
          e -> assertThat(e.reason()).isEqualTo(SessionException.Reason.SESSION_CLOSED));
    }
    assertThatThrownBy(() -> PtySession.start(SessionSpec.of("true"), List.of(), dir.resolve("missing/x.tcap")))
        .isInstanceOfSatisfying(SessionException.class, e -> assertThat(e.reason()).isEqualTo(SessionException.Reason.IO));
    assertThat(Files.exists(dir.resolve("b.tcap"))).isFalse();
  }

  private static void awaitScreen(PtySession s, String text) throws InterruptedException {
    long end = System.nanoTime() + 10_000_000_000L;
    while (!s.screen().text().contains(text)) {
      if (System.nanoTime() > end) {
        throw new AssertionError("screen never showed '" + text + "':\n" + s.screen().text());
      }
      Thread.sleep(5);
    }
  }
}
