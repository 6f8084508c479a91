package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.parser.MonotonicClock;
import com.pty4j.PtyProcess;
import com.pty4j.PtyProcessBuilder;
import com.pty4j.WinSize;
import dev.agentdesk.terminal.session.internal.Posix;
import dev.agentdesk.terminal.vt.LogLine;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A program running in a real pseudo-terminal under supervision. One reader thread per session
 * reads the PTY into a fixed buffer and runs each chunk through the session core (OSC scan, VT
 * engine, parser, timing, reducer) before reading the next, so a session's memory stays bounded
 * and a slow consumer slows the child through the kernel's PTY buffer instead of queueing bytes.
 * Timer deadlines are checked by a shared ticker and before every chunk and input.
 *
 * <p>The child runs as the leader of its own process group; {@link #kill()} signals the whole
 * group so shells' children die with them.
 */
public final class PtySession implements AutoCloseable {
  /** The environment variable that carries the session id into the child. */
  public static final String SESSION_ENV = "AGENTDESK_SESSION";

  /** Bytes per PTY read; the reader's only buffer. */
  static final int READ_BUFFER = 16 * 1024;
  private static final long TICK_MS = 100;
  private static final ScheduledExecutorService TICKER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "pty-session-ticker");
    t.setDaemon(true);
    return t;
  });

  private final SessionSpec spec;
  private final PtyProcess process;
  private final OutputStream toChild;
  private final SessionCore core;
  private final MonotonicClock clock;
  private final List<SessionListener> listeners = new CopyOnWriteArrayList<>();
  private final Thread reader;
  private final ScheduledFuture<?> ticker;
  private final CountDownLatch finished = new CountDownLatch(1);
  private final Object lock = new Object();
  private volatile Integer exitCode;
  private boolean analysisFailed;
  /** The running capture, or null; touched only under {@code lock}. */
  private LiveCapture capture;
  private volatile WinSize size;

  private PtySession(SessionSpec spec, String sessionId, PtyProcess process, List<SessionListener> initial,
      LiveCapture initialCapture) {
    this.spec = spec;
    this.process = process;
    this.clock = spec.clock();
    this.toChild = process.getOutputStream();
    this.size = new WinSize(spec.cols(), spec.rows());
    this.listeners.addAll(initial);
    this.core = new SessionCore(sessionId, spec.agent(), spec.cols(), spec.rows(), spec.timing(), isFish(spec),
        new SessionCore.Sink() {
      @Override
      public void emit(SessionEvent event) {
        for (SessionListener l : listeners) {
          l.onEvent(event);
        }
      }

      @Override
      public void writeToPty(byte[] bytes) {
        writeRaw(bytes);
      }

      @Override
      public void log(List<LogLine> lines) {
        for (SessionListener l : listeners) {
          l.onLog(lines);
        }
      }
    }, spec.clock().nowMillis());
    if (spec.replaysHistory()) {
      core.replayingHistory(); // before the reader starts: the redraw is the first output
    }
    this.capture = initialCapture;
    // The ticker before the reader: a program that ends at once has the reader cancel it (was a
    // NullPointerException that left the session unfinished, its waiters hanging).
    this.ticker = TICKER.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    this.reader = new Thread(this::readLoop, "pty-reader-" + process.pid());
    this.reader.setDaemon(true);
    this.reader.start();
  }

  /** Starts {@code spec} with no listener yet. */
  public static PtySession start(SessionSpec spec) {
    return start(spec, List.of());
  }

  /**
   * Starts the program in a new PTY of the spec's size, with {@code AGENTDESK_SESSION} set to a
   * fresh UUID and {@code TERM} defaulting to {@code xterm-256color}. Listeners given here see
   * every byte and event from the first one on.
   *
   * @throws SessionException {@code INVALID_SPEC} for a bad spec, {@code SPAWN_FAILED} when the
   *     program cannot be started
   */
  public static PtySession start(SessionSpec spec, List<SessionListener> listeners) {
    return start(spec, listeners, null);
  }

  /**
   * Like {@link #start(SessionSpec, List)}, capturing from the first byte into {@code captureFile}
   * (null for no capture). The file is created before the program starts.
   */
  public static PtySession start(SessionSpec spec, List<SessionListener> listeners, Path captureFile) {
    spec.validate();
    String[] argv = launchArgv(spec);
    LiveCapture initialCapture = captureFile == null ? null : LiveCapture.create(captureFile, spec.clock().nowMillis());
    String sessionId = UUID.randomUUID().toString();
    Map<String, String> env = new HashMap<>(System.getenv());
    // The child's terminal is our xterm-compatible VT engine, whatever the parent's TERM says.
    env.put("TERM", "xterm-256color");
    // And it is an interactive terminal: a CI=true of agentdesk's own environment (a CI job, or
    // ./run-tests) must not tell the program in it that it runs unattended (Gemini CLI 0.61 then
    // exits at once). A spec may still set CI itself.
    env.remove("CI");
    env.putAll(spec.env());
    env.put(SESSION_ENV, sessionId);
    String cwd = spec.cwd().map(Path::toString).orElse(System.getProperty("user.dir"));
    PtyProcess process;
    try {
      process = new PtyProcessBuilder(argv)
          .setEnvironment(env)
          .setDirectory(cwd)
          .setInitialColumns(spec.cols())
          .setInitialRows(spec.rows())
          .setConsole(false)
          .setRedirectErrorStream(true)
          .start();
    } catch (IOException | RuntimeException e) {
      closeQuietly(initialCapture);
      throw new SessionException(SessionException.Reason.SPAWN_FAILED,
          "cannot start " + spec.argv().get(0) + ": " + e.getMessage(), e);
    }
    // pty4j applies the initial size only after exec; set it at once (the launcher waits for it).
    process.setWinSize(new WinSize(spec.cols(), spec.rows()));
    return new PtySession(spec, sessionId, process, listeners, initialCapture);
  }

  public void addListener(SessionListener listener) {
    listeners.add(listener);
  }

  public void removeListener(SessionListener listener) {
    listeners.remove(listener);
  }

  /** The id the child got in {@code AGENTDESK_SESSION} (it changes after a conflict reset). */
  public String sessionId() {
    return state().sessionId();
  }

  public long pid() {
    return process.pid();
  }

  public Agent agent() {
    return state().agent();
  }

  public SessionSpec spec() {
    return spec;
  }

  /** The current state (a snapshot). */
  public SessionState state() {
    synchronized (lock) {
      return core.state();
    }
  }

  /** The visible screen as the session's VT engine sees it. */
  public ScreenSnapshot screen() {
    synchronized (lock) {
      return core.screen();
    }
  }

  /** Columns and rows as last set. */
  public int[] size() {
    WinSize s = size;
    return new int[] {s.getColumns(), s.getRows()};
  }

  /** Types text into the PTY as the user: a new input turn. */
  public void write(String text) {
    write(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Writes bytes into the PTY as user input: a new input turn. */
  public void write(byte[] bytes) {
    if (bytes.length == 0) {
      return;
    }
    ensureRunning("write to");
    guarded("processing input", () -> {
      long now = clock.nowMillis();
      record(now, bytes, false);
      core.input(now, bytes);
    });
    writeRaw(bytes);
  }

  /** Presses a named key. */
  public void sendKey(Key key) {
    write(key.bytes());
  }

  /** How long {@link #typeLine} waits for the program to show the typed text before it presses Enter anyway. */
  static final long ECHO_WAIT_MS = 1_500;
  /** The pause between the text shown and Enter, so that the two never reach the program in one read. */
  static final long ENTER_GAP_MS = 40;
  private static final int ECHO_TAIL = 8;

  /**
   * Types a line as a user does: the text, then Enter once the program has shown the text (at most
   * {@link #ECHO_WAIT_MS} later). A TUI that gets text and Enter in one read takes them for a paste
   * and keeps the Enter as part of the input, so the line is not submitted; a busy TUI reads late,
   * and a fixed pause after the text does not keep the two apart. Blocks while the program does not
   * read: call it on a thread of your own, never from a {@link SessionListener}.
   *
   * @throws SessionException when the session has ended
   */
  public void typeLine(String text) throws InterruptedException {
    if (!text.isEmpty()) {
      String tail = echoTail(text);
      int before = tail.isEmpty() ? 0 : occurrences(tail);
      write(text);
      if (!tail.isEmpty()) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ECHO_WAIT_MS);
        synchronized (lock) {
          long left;
          while (occurrencesLocked(tail) <= before && isRunning() && (left = end - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.timedWait(lock, left);
          }
        }
      }
      Thread.sleep(ENTER_GAP_MS);
    }
    sendKey(Key.ENTER);
  }

  /** The last few characters of the text's last line, as a screen shows them (no control characters). */
  static String echoTail(String text) {
    String last = text.substring(text.lastIndexOf('\n') + 1).replaceAll("\\p{Cntrl}", "").strip();
    int cps = last.codePointCount(0, last.length());
    return cps <= ECHO_TAIL ? last : last.substring(last.offsetByCodePoints(0, cps - ECHO_TAIL)).strip();
  }

  private int occurrences(String tail) {
    synchronized (lock) {
      return occurrencesLocked(tail);
    }
  }

  private int occurrencesLocked(String tail) {
    String screen = core.screen().text();
    int n = 0;
    for (int i = screen.indexOf(tail); i >= 0; i = screen.indexOf(tail, i + tail.length())) {
      n++;
    }
    return n;
  }

  /**
   * Resizes the terminal; the child gets SIGWINCH. Output in the following resize grace is a
   * redraw and raises no new question.
   */
  public void resize(int cols, int rows) {
    SessionSpec.checkDimension("cols", cols);
    SessionSpec.checkDimension("rows", rows);
    ensureRunning("resize");
    size = new WinSize(cols, rows);
    guarded("resizing", () -> core.resize(clock.nowMillis(), cols, rows));
    process.setWinSize(new WinSize(cols, rows));
  }

  /** Runs every timer that is due on the session clock (tests with a {@link ManualClock} call this). */
  public void tick() {
    guarded("running timers", () -> core.tick(clock.nowMillis()));
  }

  /** The input turn: how many lines (or menu answers, or interrupts) the user has submitted. */
  public long turn() {
    synchronized (lock) {
      return core.turn();
    }
  }

  /** SIGKILL to the child's whole process group. Idempotent. */
  public void kill() {
    signalGroup(Posix.SIGKILL);
  }

  /** SIGTERM to the whole process group: the polite request to end, before {@link #kill()}. */
  public void terminate() {
    signalGroup(Posix.SIGTERM);
  }

  /** SIGHUP to the whole process group, as when a terminal window closes. */
  public void hangUp() {
    signalGroup(Posix.SIGHUP);
  }

  private void signalGroup(int signal) {
    if (exitCode == null) {
      Posix.killGroup(process.pid(), signal);
    }
  }

  /** Waits for the exit and for the reader to have processed all output; returns the exit status. */
  public int waitFor() throws InterruptedException {
    finished.await();
    return exitCode;
  }

  /** Like {@link #waitFor()} with a limit; empty when the session is still running. */
  public OptionalInt waitFor(Duration timeout) throws InterruptedException {
    return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? OptionalInt.of(exitCode) : OptionalInt.empty();
  }

  /** The exit status once the session has finished, else empty. */
  public OptionalInt exitCode() {
    Integer c = exitCode;
    return c == null || finished.getCount() > 0 ? OptionalInt.empty() : OptionalInt.of(c);
  }

  public boolean isRunning() {
    return finished.getCount() > 0;
  }

  /**
   * Starts a framed .tcap capture of this session into {@code file} (created or truncated): every
   * later output chunk and user input, in order, with session-clock timestamps relative to now.
   * A capture started together with the session replays with {@code agentdesk term parse} to the
   * same parser events the session produced.
   *
   * @throws SessionException {@code CAPTURE_ACTIVE} if one is running, {@code SESSION_CLOSED}
   *     after exit, {@code IO} when the file cannot be created
   */
  public void startCapture(Path file) {
    ensureRunning("capture");
    synchronized (lock) {
      if (capture != null) {
        throw new SessionException(SessionException.Reason.CAPTURE_ACTIVE,
            "session " + sessionId() + " is already capturing to " + capture.file() + "; stop that capture first");
      }
      capture = LiveCapture.create(file, clock.nowMillis());
    }
  }

  /** Stops the running capture; returns its file, or empty when none was running. */
  public java.util.Optional<Path> stopCapture() {
    synchronized (lock) {
      Path file = capture == null ? null : capture.file();
      closeCapture(clock.nowMillis(), null);
      return java.util.Optional.ofNullable(file);
    }
  }

  /** The file being captured to, if a capture is running. */
  public java.util.Optional<Path> captureFile() {
    synchronized (lock) {
      return java.util.Optional.ofNullable(capture == null ? null : capture.file());
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        // nothing left to do with a stream of an ended child
      }
    }
  }

  private static void closeQuietly(LiveCapture c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException e) {
        // the spawn error is the one worth reporting
      }
    }
  }

  private void record(long now, byte[] bytes, boolean output) {
    if (capture == null) {
      return;
    }
    try {
      if (output) {
        capture.output(now, bytes);
      } else {
        capture.input(now, bytes);
      }
    } catch (IOException | RuntimeException e) {
      closeCapture(now, e.getMessage() == null ? e.toString() : e.getMessage());
    }
  }

  private void closeCapture(long now, String error) {
    if (capture == null) {
      return;
    }
    LiveCapture c = capture;
    capture = null;
    String problem = error;
    try {
      c.close();
    } catch (IOException e) {
      problem = problem == null ? e.getMessage() : problem;
    }
    for (SessionListener l : listeners) {
      l.onEvent(new SessionEvent.CaptureStopped(now, c.file(), problem));
    }
  }

  /** Kills the process group if still running and waits briefly for the reader to finish. */
  @Override
  public void close() {
    kill();
    try {
      finished.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ticker.cancel(false);
  }

  private void readLoop() {
    byte[] buf = new byte[READ_BUFFER];
    InputStream in = process.getInputStream();
    try {
      int n;
      while ((n = in.read(buf)) > 0) {
        byte[] chunk = java.util.Arrays.copyOf(buf, n);
        long readTurn = core.turn(); // deliberately before the lock: the turn current when read
        for (SessionListener l : listeners) {
          try {
            l.onOutput(chunk);
          } catch (RuntimeException e) {
            // A listener's failure must not end the read: the child would block on a full PTY.
            guarded("a listener's output handling", () -> {
              throw e;
            });
          }
        }
        guarded("processing output", () -> {
          long now = clock.nowMillis();
          record(now, chunk, true);
          core.output(now, chunk, readTurn);
          lock.notifyAll(); // a typeLine waiting for its echo
        });
      }
    } catch (IOException e) {
      // EIO on Linux when the last writer of the PTY closes: that is the normal end of output.
    } finally {
      int code = -1;
      try {
        code = process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        exitCode = code;
        int c = code;
        guarded("reporting the exit", () -> {
          core.exit(clock.nowMillis(), c);
          closeCapture(clock.nowMillis(), null);
        });
        ticker.cancel(false);
        releasePty();
        finished.countDown();
        synchronized (lock) {
          lock.notifyAll(); // a typeLine waiting for its echo: there will be none
        }
      }
    }
  }

  /**
   * Gives the PTY back once the child is gone and its output read: pty4j keeps the master open
   * until its streams and the PTY are closed, so a long-running server that ends terminals would
   * otherwise hold one descriptor (or more) per terminal it ever ran.
   */
  private void releasePty() {
    synchronized (toChild) {
      closeQuietly(toChild);
    }
    closeQuietly(process.getInputStream());
    closeQuietly(process.getErrorStream());
    if (process instanceof com.pty4j.unix.UnixPtyProcess unix) {
      try {
        unix.getPty().close();
      } catch (IOException | RuntimeException e) {
        // already closed by its streams
      }
    }
  }

  /**
   * Runs a core step under the lock. A failure in analysis (a parser bug, a throwing listener) is
   * reported once as {@link SessionEvent.AnalysisFailed} and never stops the reader: the child's
   * bytes keep flowing and the exit is still reported.
   */
  private void guarded(String what, Runnable step) {
    synchronized (lock) {
      try {
        step.run();
      } catch (RuntimeException e) {
        if (!analysisFailed) {
          analysisFailed = true;
          System.err.println("agentdesk: session " + process.pid() + ": " + what + " failed: " + e);
          e.printStackTrace();
          for (SessionListener l : listeners) {
            try {
              l.onEvent(new SessionEvent.AnalysisFailed(clock.nowMillis(), what + ": " + e));
            } catch (RuntimeException ignored) {
              // a listener that throws on this event too has nothing left to tell us
            }
          }
        }
      }
    }
  }

  private void writeRaw(byte[] bytes) {
    try {
      synchronized (toChild) {
        toChild.write(bytes);
        toChild.flush();
      }
    } catch (IOException e) {
      throw new SessionException(SessionException.Reason.IO, "writing to the PTY failed: " + e.getMessage(), e);
    }
  }

  private void ensureRunning(String what) {
    if (exitCode != null || finished.getCount() == 0) {
      throw new SessionException(SessionException.Reason.SESSION_CLOSED,
          "cannot " + what + " session " + sessionId() + ": its process has exited");
    }
  }

  /**
   * pty4j execs the child first and sizes the PTY afterwards, so a program that asks for its size
   * at once can see 0×0. The child therefore starts as a tiny {@code sh} launcher that waits until
   * the size is set (we set it right after start) and then {@code exec}s the real argv: same pid,
   * same process group, exit status passed through. The program is resolved beforehand so a
   * missing one is a typed error rather than a shell's exit 127.
   */
  private static String[] launchArgv(SessionSpec spec) {
    String program = resolveProgram(spec);
    List<String> argv = new java.util.ArrayList<>(List.of("/bin/sh", "-c",
        "while [ \"$(stty size 2>/dev/null)\" = \"0 0\" ]; do sleep 0.005; done; exec \"$@\"",
        "agentdesk-pty", program));
    argv.addAll(spec.argv().subList(1, spec.argv().size()));
    return argv.toArray(String[]::new);
  }

  private static String resolveProgram(SessionSpec spec) {
    String name = spec.argv().get(0);
    Path base = spec.cwd().orElse(Path.of(System.getProperty("user.dir")));
    if (name.contains("/")) {
      Path p = base.resolve(name);
      if (java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.isExecutable(p)) {
        return p.toString();
      }
      throw new SessionException(SessionException.Reason.SPAWN_FAILED,
          "cannot start " + name + ": " + (java.nio.file.Files.exists(p) ? "not an executable file" : "no such file"));
    }
    String path = spec.env().getOrDefault("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    for (String dir : path.split(":")) {
      Path p = base.resolve(dir.isEmpty() ? "." : dir).resolve(name);
      if (java.nio.file.Files.isRegularFile(p) && java.nio.file.Files.isExecutable(p)) {
        return p.toString();
      }
    }
    throw new SessionException(SessionException.Reason.SPAWN_FAILED,
        "cannot start " + name + ": not found on PATH (" + path + ")");
  }

  /** fish needs {@code set -gx} for the session-id reset; every other shell takes {@code export}. */
  private static boolean isFish(SessionSpec spec) {
    String prog = Path.of(spec.argv().get(0)).getFileName().toString();
    if (prog.equals("fish")) {
      return true;
    }
    boolean posixShell = prog.matches("(ba|z|da|k|mk)?sh");
    String shell = spec.env().getOrDefault("SHELL", System.getenv().getOrDefault("SHELL", ""));
    return !posixShell && shell.endsWith("/fish");
  }
}
