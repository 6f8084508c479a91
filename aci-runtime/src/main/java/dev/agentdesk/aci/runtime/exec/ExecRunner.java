package dev.agentdesk.aci.runtime.exec;

import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs child processes for the {@code exec} verb. Every child starts in a session of its own
 * (through util-linux {@code setsid}, which calls setsid(2) and then execs in the same process, so
 * the child's pid is its process-group id); a timeout or a {@link Running#kill()} sends SIGKILL to
 * the whole group, grandchildren included. At most {@link ExecLimits#MAX_CONCURRENT} run at once
 * per runner. {@link #close()} kills every child still running and refuses new ones, so a stopping
 * runtime leaves no child behind whichever session started it.
 */
public final class ExecRunner {
  private static final int SIGKILL = 9;
  private static final String SETSID = "/usr/bin/setsid";

  interface LibC extends Library {
    LibC C = Native.load("c", LibC.class);

    int kill(int pid, int sig);
  }

  /** How long {@link #close()} waits for killed children to be reaped. */
  private static final long CLOSE_WAIT_MS = 1000;

  private final Semaphore slots = new Semaphore(ExecLimits.MAX_CONCURRENT);
  /** Children started and not yet exited. */
  private final Set<Running> live = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /** A child that is running. */
  public final class Running {
    private final Process process;
    private final long startNanos;
    private volatile boolean killed;

    private Running(Process process) {
      this.process = process;
      this.startNanos = System.nanoTime();
    }

    /** The child's pid, which is also its process-group id. */
    public long pid() {
      return process.pid();
    }

    /** SIGKILL to the whole process group. */
    public void kill() {
      killed = true;
      LibC.C.kill(-(int) process.pid(), SIGKILL);
      LibC.C.kill((int) process.pid(), SIGKILL);
    }

    private ExecOutcome await(long timeoutMs) throws InterruptedException {
      boolean exited;
      try {
        exited = process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        kill(); // whoever waits gives up (its session or the runtime is closing): the child goes too
        throw e;
      }
      boolean timedOut = false;
      if (!exited) {
        timedOut = true;
        kill();
        process.waitFor();
      }
      double ms = (System.nanoTime() - startNanos) / 1e6;
      if (timedOut || killed) {
        return new ExecOutcome(null, SIGKILL, timedOut, ms);
      }
      return new ExecOutcome(process.exitValue(), null, false, ms);
    }
  }

  /** Reserves a slot or fails with the reference's limit error. */
  private void acquire() {
    if (!slots.tryAcquire()) {
      throw new AciRuntimeException(AciRuntimeException.Reason.LIMIT,
          "max concurrent execs reached (" + ExecLimits.MAX_CONCURRENT + ")");
    }
  }

  /** Starts a child (a slot must be held); spawn failures carry the {@code exec_spawn_failed:} prefix. */
  private Running spawn(ExecRequest req) {
    if (closed) {
      throw spawnFailed("the runtime is stopping");
    }
    File cwd = req.cwd() == null ? null : new File(req.cwd());
    if (cwd != null && !cwd.isDirectory()) {
      throw spawnFailed("cwd " + req.cwd() + ": No such file or directory (os error 2)");
    }
    List<String> command = new ArrayList<>(req.command());
    String program = resolve(command.get(0), cwd, req.env());
    command.set(0, program);
    command.add(0, "--");
    command.add(0, SETSID);
    ProcessBuilder pb = new ProcessBuilder(command);
    if (cwd != null) {
      pb.directory(cwd);
    }
    Map<String, String> env = pb.environment();
    env.putAll(req.env());
    if (req.stdin() == null) {
      pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    try {
      Process p = pb.start();
      Running running = new Running(p);
      live.add(running);
      p.onExit().thenRun(() -> live.remove(running));
      if (closed) {
        running.kill(); // close() ran while this child was being started and could not see it
      }
      if (req.stdin() != null) {
        byte[] in = req.stdin().getBytes(StandardCharsets.UTF_8);
        Thread writer = new Thread(() -> {
          try (OutputStream os = p.getOutputStream()) {
            os.write(in);
          } catch (IOException ignored) {
            // the child closed its stdin early; what it did not read is its choice
          }
        }, "exec-stdin-" + p.pid());
        writer.setDaemon(true);
        writer.start();
      }
      return running;
    } catch (IOException e) {
      throw spawnFailed(e.getMessage());
    }
  }

  private static AciRuntimeException spawnFailed(String why) {
    return new AciRuntimeException(AciRuntimeException.Reason.ENVIRONMENT, "exec_spawn_failed: " + why);
  }

  /**
   * PATH lookup done here rather than inside setsid so that a missing program is a spawn failure
   * (setsid would report it as exit status 127, indistinguishable from the program's own).
   */
  private static String resolve(String program, File cwd, Map<String, String> extraEnv) {
    if (program.isEmpty()) {
      throw spawnFailed("empty program name: No such file or directory (os error 2)");
    }
    if (program.contains("/")) {
      Path p = Path.of(program);
      if (!p.isAbsolute() && cwd != null) {
        p = cwd.toPath().resolve(p);
      }
      return checkExecutable(p, program).toString();
    }
    String path = extraEnv.getOrDefault("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    for (String dir : path.split(":")) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate.toAbsolutePath().toString();
      }
    }
    throw spawnFailed(program + ": No such file or directory (os error 2)");
  }

  private static Path checkExecutable(Path p, String shown) {
    if (!Files.exists(p)) {
      throw spawnFailed(shown + ": No such file or directory (os error 2)");
    }
    if (Files.isDirectory(p) || !Files.isExecutable(p)) {
      throw spawnFailed(shown + ": Permission denied (os error 13)");
    }
    return p.toAbsolutePath();
  }

  /**
   * Runs to completion and returns everything at once. {@code onStart} receives the running child
   * (so that the owner can kill it when its connection closes).
   */
  public BufferedResult runBuffered(ExecRequest req, Consumer<Running> onStart) throws InterruptedException {
    acquire();
    try {
      Running r = spawn(req);
      onStart.accept(r);
      CappedReader out = new CappedReader(r.process.getInputStream(), ExecLimits.BUFFERED_CHANNEL_CAP);
      CappedReader err = new CappedReader(r.process.getErrorStream(), ExecLimits.BUFFERED_CHANNEL_CAP);
      out.start();
      err.start();
      ExecOutcome outcome = r.await(req.timeoutMs());
      out.finish();
      err.finish();
      return new BufferedResult(outcome, out.text(), err.text(), out.truncated, err.truncated);
    } finally {
      slots.release();
    }
  }

  /** The streamed form's end: the outcome plus whether the 8 MiB budget cut output. */
  public record StreamEnd(ExecOutcome outcome, boolean truncated) {}

  /**
   * Starts a streamed run and returns once the child is running; chunks go to {@code sink} in
   * order (one thread at a time), and {@code onExit} gets the end exactly once.
   */
  public Running startStreamed(ExecRequest req, Consumer<OutputChunk> sink, Consumer<StreamEnd> onExit) {
    acquire();
    Running r;
    try {
      r = spawn(req);
    } catch (RuntimeException e) {
      slots.release();
      throw e;
    }
    StreamBudget budget = new StreamBudget(sink);
    Thread out = budget.pump(r.process.getInputStream(), OutputChunk.Channel.STDOUT);
    Thread err = budget.pump(r.process.getErrorStream(), OutputChunk.Channel.STDERR);
    Thread waiter = new Thread(() -> {
      try {
        ExecOutcome outcome = r.await(req.timeoutMs());
        out.join(ExecLimits.DRAIN_GRACE_MS);
        err.join(ExecLimits.DRAIN_GRACE_MS);
        closeQuietly(r.process.getInputStream());
        closeQuietly(r.process.getErrorStream());
        out.join(ExecLimits.DRAIN_GRACE_MS);
        err.join(ExecLimits.DRAIN_GRACE_MS);
        onExit.accept(new StreamEnd(outcome, budget.truncated()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        slots.release();
      }
    }, "exec-wait-" + r.pid());
    waiter.setDaemon(true);
    waiter.start();
    return r;
  }

  /**
   * Refuses new children, sends SIGKILL to every running child's process group, and waits (up to
   * a second in total) until they are reaped. Idempotent.
   */
  public void close() {
    closed = true;
    List<Running> all = new ArrayList<>(live);
    all.forEach(Running::kill);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
    for (Running r : all) {
      try {
        r.process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Children started by this runner that have not exited yet. */
  public int running() {
    return live.size();
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  /** Reads a channel fully, keeping the first {@code cap} bytes. */
  private static final class CappedReader extends Thread {
    private final InputStream in;
    private final byte[] kept;
    private int size;
    boolean truncated;

    CappedReader(InputStream in, int cap) {
      super("exec-read");
      setDaemon(true);
      this.in = in;
      this.kept = new byte[cap];
    }

    @Override
    public void run() {
      byte[] buf = new byte[16 * 1024];
      try {
        int n;
        while ((n = in.read(buf)) > 0) {
          int keep = Math.min(n, kept.length - size);
          System.arraycopy(buf, 0, kept, size, keep);
          size += keep;
          truncated |= keep < n;
        }
      } catch (IOException ignored) {
        // pipe closed after the drain grace
      }
    }

    void finish() throws InterruptedException {
      join(ExecLimits.DRAIN_GRACE_MS);
      if (isAlive()) {
        closeQuietly(in);
        join(ExecLimits.DRAIN_GRACE_MS);
      }
    }

    String text() {
      synchronized (this) {
        return new String(kept, 0, size, StandardCharsets.UTF_8);
      }
    }
  }

  /** Assigns the shared seq and enforces the total budget across both channels. */
  private static final class StreamBudget {
    private final Consumer<OutputChunk> sink;
    private long seq;
    private long sent;
    private boolean truncated;

    StreamBudget(Consumer<OutputChunk> sink) {
      this.sink = sink;
    }

    synchronized boolean truncated() {
      return truncated;
    }

    private synchronized void emit(OutputChunk.Channel channel, byte[] buf, int n) {
      long room = ExecLimits.STREAM_TOTAL - sent;
      if (room <= 0) {
        truncated = true;
        return;
      }
      int take = (int) Math.min(n, room);
      truncated |= take < n;
      sent += take;
      sink.accept(new OutputChunk(seq++, channel, java.util.Arrays.copyOf(buf, take)));
    }

    Thread pump(InputStream in, OutputChunk.Channel channel) {
      Thread t = new Thread(() -> {
        byte[] buf = new byte[ExecLimits.STREAM_CHUNK];
        try {
          int n;
          while ((n = in.read(buf)) > 0) {
            emit(channel, buf, n);
          }
        } catch (IOException ignored) {
          // closed after the drain grace
        }
      }, "exec-" + channel.wire());
      t.setDaemon(true);
      t.start();
      return t;
    }
  }
}
