package dev.agentdesk.app.termrun;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionJson;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.terminal.session.SessionSpec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code agentdesk term run}: the command runs in a supervised PTY attached to this terminal.
 * Keys go to it unchanged (raw mode), its output comes back unchanged, window size changes are
 * forwarded, and its exit status becomes ours. Parsed events and state changes go to
 * {@code --events} as JSON lines while it runs.
 */
public final class TermRun {
  /** Ctrl-D: what a terminal sends at end of input, for a child reading a piped standard input. */
  private static final byte EOT = 4;

  /**
   * @param agent the explicit agent, or empty to detect it from the command
   * @param capture the .tcap file to capture into, or empty
   * @param events the JSON-lines file for events, or empty
   * @param command the program and its arguments
   */
  public record Options(Optional<Agent> agent, Optional<Path> capture, Optional<Path> events, List<String> command) {
    public Options {
      command = List.copyOf(command);
    }
  }

  private TermRun() {}

  /**
   * Runs {@code o.command()} until it exits and returns its exit status (128+N when signal N
   * ended it).
   *
   * @throws IOException when the events file cannot be written
   */
  public static int run(Options o, InputStream in, OutputStream out) throws IOException, InterruptedException {
    BufferedWriter events = o.events().isPresent() ? Files.newBufferedWriter(o.events().get(), StandardCharsets.UTF_8)
        : null;
    try (HostTerminal host = HostTerminal.attach()) {
      int[] size = host.size();
      SessionSpec spec = SessionSpec.of(o.command()).withSize(size[0], size[1]);
      if (o.agent().isPresent()) {
        spec = spec.withAgent(o.agent().get());
      }
      long startMs = spec.clock().nowMillis();
      Mirror mirror = new Mirror(out, events, startMs);
      // The handler goes in before the child starts, so no resize in between is lost.
      AtomicReference<PtySession> running = new AtomicReference<>();
      WindowChanges.forward(() -> {
        PtySession s = running.get();
        if (s != null && s.isRunning()) {
          int[] now = host.size();
          try {
            s.resize(now[0], now[1]);
          } catch (RuntimeException e) {
            // it exited meanwhile
          }
        }
      });
      PtySession session = PtySession.start(spec, List.of(mirror), o.capture().orElse(null));
      running.set(session);
      int[] now = host.size();
      if (now[0] != size[0] || now[1] != size[1]) {
        session.resize(now[0], now[1]); // changed while starting
      }
      Thread pump = new Thread(() -> pumpInput(in, session, host.isTty()), "agentdesk-term-run-input");
      pump.setDaemon(true);
      pump.start();
      int code = session.waitFor();
      mirror.flush();
      return code;
    } finally {
      if (events != null) {
        events.close();
      }
    }
  }

  /** Our standard input to the child: keys as typed; a piped input ends with Ctrl-D. */
  private static void pumpInput(InputStream in, PtySession session, boolean tty) {
    byte[] buf = new byte[4096];
    try {
      int n;
      while ((n = in.read(buf)) > 0) {
        session.write(java.util.Arrays.copyOf(buf, n));
      }
      if (!tty && session.isRunning()) {
        session.write(new byte[] {EOT});
      }
    } catch (IOException | RuntimeException e) {
      // The child exited (writes refused) or our input closed: nothing more to forward.
    }
  }

  /** Child output to our standard output, events to the events file. */
  private static final class Mirror implements SessionListener {
    private final OutputStream out;
    private final BufferedWriter events;
    private final long startMs;
    private IOException eventsFailure;

    Mirror(OutputStream out, BufferedWriter events, long startMs) {
      this.out = out;
      this.events = events;
      this.startMs = startMs;
    }

    @Override
    public void onOutput(byte[] chunk) {
      try {
        out.write(chunk);
        out.flush();
      } catch (IOException e) {
        // Our terminal went away; the child keeps running until it notices its own hang-up.
      }
    }

    @Override
    public synchronized void onEvent(SessionEvent event) {
      if (events == null || eventsFailure != null) {
        return;
      }
      try {
        events.write(SessionJson.toJson(event, startMs));
        events.newLine();
        events.flush();
      } catch (IOException e) {
        eventsFailure = e;
      }
    }

    synchronized void flush() throws IOException {
      if (eventsFailure != null) {
        throw new IOException("writing events failed: " + eventsFailure.getMessage(), eventsFailure);
      }
      out.flush();
    }
  }
}
