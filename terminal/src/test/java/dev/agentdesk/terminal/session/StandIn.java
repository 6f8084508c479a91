package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.ManualClock;
import dev.agentdesk.terminal.parser.ParsedEvent;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * A stand-in agent script from {@code src/test/resources/agents} running in a real PTY, with the
 * session's timers on a {@link ManualClock}. Waiting is only for what the real process prints;
 * timer logic moves by {@link #advance}, never by sleeping.
 */
final class StandIn implements AutoCloseable {
  final ManualClock clock = new ManualClock(1_000_000);
  final Recorder rec = new Recorder();
  final PtySession session;

  private StandIn(SessionSpec spec) {
    this.session = PtySession.start(spec.withClock(clock), List.of(rec));
  }

  static Path script(String name) {
    URL url = StandIn.class.getResource("/agents/" + name);
    if (url == null) {
      throw new IllegalStateException("missing test resource agents/" + name);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static StandIn start(Agent agent, String script, String... args) {
    String[] argv = new String[args.length + 2];
    argv[0] = "bash";
    argv[1] = script(script).toString();
    System.arraycopy(args, 0, argv, 2, args.length);
    return new StandIn(SessionSpec.of(argv).withAgent(agent).withSize(100, 30));
  }

  static StandIn start(SessionSpec spec) {
    return new StandIn(spec);
  }

  /** Moves the session clock and runs due timers (the tick also publishes the new time to the reader). */
  StandIn advance(long millis) {
    clock.advanceBy(millis);
    session.tick();
    return this;
  }

  SessionState state() {
    return session.state();
  }

  /** Waits until the session's own screen shows {@code text}, i.e. the chunk has been processed. */
  StandIn awaitScreen(String text) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!session.screen().text().contains(text)) {
      if (System.nanoTime() > end) {
        throw new AssertionError("screen never showed '" + text + "':\n" + session.screen().text());
      }
      Thread.sleep(5);
    }
    return this;
  }

  /**
   * Waits until the screen shows {@code text} and the cursor rests in the composer's input row
   * ("│ >", column 4), where the Claude stand-in leaves it as the last step of a repaint. Only then
   * has every byte of the repaint been read and stamped on the session clock: a screen that already
   * shows the text may still have the composer's bytes in flight, and moving the clock before they
   * arrive would stamp them late (the idle timer would restart after the advance).
   */
  StandIn awaitComposer(String text) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      ScreenSnapshot s = session.screen();
      if (s.text().contains(text) && s.cursorCol() == 4 && s.lines().get(s.cursorRow()).startsWith("│ >")) {
        return this;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError("screen never showed '" + text + "' with the cursor in the composer (row "
            + s.cursorRow() + ", col " + s.cursorCol() + "):\n" + s.text());
      }
      Thread.sleep(5);
    }
  }

  /** Waits until the state satisfies {@code p} (the process's output is processed asynchronously). */
  SessionState awaitState(Predicate<SessionState> p, String what) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!p.test(session.state())) {
      if (System.nanoTime() > end) {
        throw new AssertionError("state never became " + what + ": " + session.state());
      }
      Thread.sleep(5);
    }
    return session.state();
  }

  <T extends ParsedEvent> T awaitParsed(Class<T> type) throws InterruptedException {
    SessionEvent e = rec.awaitEvent(ev -> ev instanceof SessionEvent.Parsed p && type.isInstance(p.event()),
        Duration.ofSeconds(10));
    return type.cast(((SessionEvent.Parsed) e).event());
  }

  List<ParsedEvent> parsed(Class<? extends ParsedEvent> type) {
    return rec.events().stream()
        .filter(e -> e instanceof SessionEvent.Parsed p && type.isInstance(p.event()))
        .map(e -> ((SessionEvent.Parsed) e).event())
        .toList();
  }

  /** Sends SIGUSR1 to the stand-in: an outside event that is not user input. */
  void nudge() throws Exception {
    Process kill = new ProcessBuilder("kill", "-USR1", Long.toString(session.pid())).redirectErrorStream(true).start();
    if (kill.waitFor() != 0) {
      throw new AssertionError("kill -USR1 " + session.pid() + " failed");
    }
  }

  /** Waits for {@code text} on screen, then lets the parser's 250 ms line-settle window pass. */
  StandIn awaitSettled(String text) throws InterruptedException {
    awaitScreen(text);
    return advance(300);
  }

  void typeLine(String line) {
    session.write(line + "\r");
  }

  @Override
  public void close() {
    session.close();
  }
}
