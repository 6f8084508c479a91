package dev.agentdesk.app.cli;

import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.app.runtime.ListenAddress;
import dev.agentdesk.app.runtime.OwnXvfb;
import dev.agentdesk.app.runtime.RecordingTap;
import dev.agentdesk.app.runtime.StopSignals;
import dev.agentdesk.aci.recording.RecordingException;
import dev.agentdesk.aci.recording.RecordingWriter;
import dev.agentdesk.aci.runtime.atspi.AtspiSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code agentdesk runtime}: Run the ACI v0 guest runtime (a sandbox computer) on this machine's X display. */
@Command(name = "runtime", mixinStandardHelpOptions = true,
    description = {"Run the ACI v0 guest runtime (a sandbox computer) on this machine's X display.",
        "Clients connect with ws://HOST:PORT/ and must send the token in hello."})
public final class RuntimeCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:8765",
      description = "Address to listen on (default ${DEFAULT-VALUE}; port 0 picks a free one).")
  String listen;

  @Option(names = "--token-file", paramLabel = "FILE", required = true,
      description = "File holding the bearer token every hello must carry (surrounding whitespace ignored).")
  Path tokenFile;

  @Option(names = "--allow-exec", description = "Offer the exec verb (off by default: fail-closed).")
  boolean allowExec;

  @Option(names = "--allowed-origin", paramLabel = "ORIGIN",
      description = "A browser origin admitted at the WebSocket upgrade (repeatable); others get HTTP 403.")
  List<String> allowedOrigins = new ArrayList<>();

  @ArgGroup(exclusive = true)
  Screen screen = new Screen();

  @Option(names = "--record", paramLabel = "DIR", arity = "0..1", fallbackValue = "",
      description = "Record every message of every connection into the new folder DIR (docs/recording.md)."
          + " Without DIR: a new folder named by the start time in $XDG_DATA_HOME/agentdesk/recordings,"
          + " where 'serve' finds it for the dashboard's Recordings page.")
  Path record;

  static final class Screen {
    @Option(names = "--display", paramLabel = ":N", description = "X display to drive (default $DISPLAY).")
    String display;

    @Option(names = "--xvfb", paramLabel = "WxH", description = "Start a private Xvfb of this size and drive it.")
    String xvfb;
  }

  /**
   * A new folder in {@code recordings} named by {@code now} in UTC ({@code 2026-12-01T16-48-03Z}, a
   * suffix when taken): a valid recording id, sorting by time.
   */
  static Path defaultRecording(Path recordings, java.time.Instant now) {
    String name = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss'Z'")
        .withZone(java.time.ZoneOffset.UTC).format(now);
    Path dir = recordings.resolve(name);
    for (int i = 2; java.nio.file.Files.exists(dir); i++) {
      dir = recordings.resolve(name + "-" + i);
    }
    return dir;
  }

  /** Released to stop a running runtime (SIGTERM, SIGINT, tests). */
  final CountDownLatch stop = new CountDownLatch(1);

  /**
   * The longest a stop may take once it begins. The ordered close needs well under half of it; if
   * it still runs at the deadline, something is stuck, and the process kills its Xvfb and halts
   * with status 1 rather than hang.
   */
  static final long STOP_DEADLINE_MS = 4500;

  @Override
  public Integer call() throws Exception {
    ListenAddress addr;
    try {
      addr = ListenAddress.parse(listen);
    } catch (IllegalArgumentException e) {
      throw new UserError("--listen: " + e.getMessage());
    }
    String token = readToken();
    RecordingWriter recording = null;
    if (record != null && record.toString().isEmpty()) {
      Path data = dev.agentdesk.app.serve.DataDirs.dataDir(System.getenv(), dev.agentdesk.app.serve.DataDirs.home());
      // Recordings are screenshots of the sandbox: the data folder stays owner-only whoever makes it.
      dev.agentdesk.app.serve.DataDirs.makePrivate(data);
      record = defaultRecording(data.resolve("recordings"), java.time.Instant.now());
    }
    if (record != null) {
      try {
        recording = RecordingWriter.open(record, RecordingWriter.Limits.defaults());
      } catch (RecordingException e) {
        throw new UserError("--record: " + e.getMessage(), e);
      }
    }
    OwnXvfb xvfb = screen.xvfb == null ? null : startXvfb(screen.xvfb);
    String display = xvfb != null ? xvfb.display() : screen.display != null ? screen.display : System.getenv("DISPLAY");
    if (display == null || display.isEmpty()) {
      closeQuietly(xvfb);
      closeQuietly(recording);
      throw new UserError("no X display: pass --display :N, set DISPLAY, or use --xvfb 1280x800");
    }
    AciRuntime runtime;
    try {
      AciRuntime.Options options = new AciRuntime.Options(addr.host(), addr.port(), token, allowExec, allowedOrigins,
          display, null, VersionProvider.version());
      runtime = recording == null ? AciRuntime.start(options)
          : AciRuntime.start(options, AtspiSettings.fromEnvironment(System.getenv()),
              new RecordingTap(recording, System.err));
    } catch (AciRuntimeException e) {
      closeQuietly(xvfb);
      closeQuietly(recording);
      throw new UserError(e.getMessage(), e);
    }
    Stopper stopper = new Stopper(runtime, xvfb, recording);
    // Any other way the JVM ends (SIGHUP, System.exit elsewhere) runs the same one-time stop; the
    // hook and this thread never close concurrently, the second caller waits for the first.
    Thread hook = new Thread(stopper::stop, "agentdesk-runtime-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    StopSignals signals = StopSignals.install(stop::countDown);
    PrintWriter out = spec.commandLine().getOut();
    out.printf("agentdesk runtime listening on ws://%s:%d/ (display %s, exec %s%s%s)%n", addr.host(), runtime.port(),
        display, allowExec ? "on" : "off", allowedOrigins.isEmpty() ? "" : ", origins " + allowedOrigins,
        record == null ? "" : ", recording into " + record);
    out.flush();
    try {
      stop.await();
    } finally {
      Thread deadline = deadline(xvfb);
      try {
        stopper.stop();
      } finally {
        deadline.interrupt();
        signals.close();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the hook runs now or soon; its stop() returns at once
        }
      }
    }
    return 0;
  }

  /** Stops the runtime, then its own Xvfb: once, whichever thread asks first; later callers wait for it. */
  private static final class Stopper {
    private final AciRuntime runtime;
    private final OwnXvfb xvfb;
    private final RecordingWriter recording;
    private boolean done; // guarded by this

    Stopper(AciRuntime runtime, OwnXvfb xvfb, RecordingWriter recording) {
      this.runtime = runtime;
      this.xvfb = xvfb;
      this.recording = recording;
    }

    synchronized void stop() {
      if (done) {
        return;
      }
      done = true;
      try {
        runtime.close();
      } finally {
        closeQuietly(recording);
        closeQuietly(xvfb);
      }
    }
  }

  /** A daemon that ends the process if the stop outlives {@link #STOP_DEADLINE_MS}; interrupt it when done. */
  private static Thread deadline(OwnXvfb xvfb) {
    Thread t = new Thread(() -> {
      try {
        Thread.sleep(STOP_DEADLINE_MS);
      } catch (InterruptedException done) {
        return;
      }
      System.err.println("agentdesk runtime: stopping took longer than " + STOP_DEADLINE_MS
          + " ms; killing its Xvfb and exiting");
      if (xvfb != null) {
        xvfb.kill();
      }
      Runtime.getRuntime().halt(1);
    }, "agentdesk-runtime-stop-deadline");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private String readToken() {
    try {
      String t = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      if (t.isEmpty()) {
        throw new UserError("--token-file " + tokenFile + " is empty; a TCP listener requires a token");
      }
      return t;
    } catch (IOException e) {
      throw new UserError("cannot read --token-file " + tokenFile + ": " + e.getMessage());
    }
  }

  private static OwnXvfb startXvfb(String size) throws InterruptedException {
    String[] wh = size.toLowerCase(java.util.Locale.ROOT).split("x");
    int w;
    int h;
    try {
      w = Integer.parseInt(wh[0]);
      h = Integer.parseInt(wh[1]);
    } catch (RuntimeException e) {
      throw new UserError("--xvfb expects WIDTHxHEIGHT, e.g. 1280x800, got '" + size + "'");
    }
    if (wh.length != 2 || w < 64 || h < 64 || w > 8192 || h > 8192) {
      throw new UserError("--xvfb size must be between 64x64 and 8192x8192, got '" + size + "'");
    }
    try {
      return OwnXvfb.start(w, h);
    } catch (IOException e) {
      throw new UserError(e.getMessage(), e);
    }
  }

  private static void closeQuietly(OwnXvfb x) {
    if (x != null) {
      x.close();
    }
  }

  private static void closeQuietly(RecordingWriter w) {
    if (w != null) {
      try {
        w.close();
      } catch (RecordingException e) {
        System.err.println("agentdesk runtime: " + e.getMessage());
      }
    }
  }
}
