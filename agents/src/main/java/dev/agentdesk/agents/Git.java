package dev.agentdesk.agents;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code git} CLI. The real git is the authority on worktrees, refs, merges and diffs
 * (hooks, config, attributes, sparse checkouts), so we drive it rather than reimplement it.
 * Output is read fully; git's stdin is closed so nothing can wait for a prompt, and
 * {@code GIT_TERMINAL_PROMPT=0} plus a fixed {@code LC_ALL=C} keep messages parseable.
 */
final class Git {
  /** What one git command did. */
  record Result(int exit, String out, String err) {
    boolean ok() {
      return exit == 0;
    }

    String firstLine() {
      String s = out.strip();
      int nl = s.indexOf('\n');
      return nl < 0 ? s : s.substring(0, nl);
    }
  }

  /** How long one git command may take, hooks included, before it and its children are killed. */
  static final java.time.Duration TIMEOUT = java.time.Duration.ofSeconds(120);
  private final String git;
  private final Map<String, String> env;
  private final java.time.Duration timeout;

  /**
   * @param git the git executable ({@code git} to look it up on PATH)
   * @param env extra variables for every command (a temporary index, an author identity)
   * @param timeout how long one command may run
   */
  Git(String git, Map<String, String> env, java.time.Duration timeout) {
    this.git = git;
    this.env = Map.copyOf(env);
    this.timeout = timeout;
  }

  Git(String git, Map<String, String> env) {
    this(git, env, TIMEOUT);
  }

  Git() {
    this("git", Map.of());
  }

  /** A runner whose commands also get {@code more}. */
  Git with(Map<String, String> more) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.putAll(more);
    return new Git(git, all, timeout);
  }

  /** Runs {@code git args…} in {@code dir}; never throws for a non-zero exit. */
  Result run(Path dir, String... args) {
    return run(dir, List.of(args));
  }

  Result run(Path dir, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(git);
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().put("LC_ALL", "C");
    pb.environment().put("GIT_TERMINAL_PROMPT", "0");
    // An editor must never open (merge messages are given with -m / --no-edit).
    pb.environment().put("GIT_EDITOR", "true");
    pb.environment().putAll(env);
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new AgentException(AgentException.Reason.GIT_FAILED, "cannot run git: " + e.getMessage(), e);
    }
    try {
      p.getOutputStream().close();
      // Both streams are read aside so that the wait below is the one that is timed: a hook that
      // hangs keeps stdout open, and reading it to its end first would wait with it, forever.
      CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()), READERS);
      CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()), READERS);
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        // The hook's children hold the pipes too: end them all, then git.
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new AgentException(AgentException.Reason.GIT_FAILED, "git " + String.join(" ", args) + " did not finish"
            + " within " + timeout.toSeconds() + " s (a hook that waits? check the repository's git hooks) and was stopped");
      }
      return new Result(p.exitValue(), new String(drained(out), StandardCharsets.UTF_8),
          new String(drained(err), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new AgentException(AgentException.Reason.GIT_FAILED, "git " + args.get(0) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new AgentException(AgentException.Reason.GIT_FAILED, "interrupted while git ran", e);
    }
  }

  /** Runs and returns stdout; a non-zero exit is {@link AgentException.Reason#GIT_FAILED} with git's message. */
  String check(Path dir, String... args) {
    Result r = run(dir, args);
    if (!r.ok()) {
      throw failed(r, args);
    }
    return r.out();
  }

  static AgentException failed(Result r, String... args) {
    String msg = r.err().strip().isEmpty() ? r.out().strip() : r.err().strip();
    return new AgentException(AgentException.Reason.GIT_FAILED,
        "git " + String.join(" ", args) + " failed (exit " + r.exit() + "): " + msg);
  }

  /** Daemon threads for the two output readers of each command. */
  private static final java.util.concurrent.ExecutorService READERS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "git-output");
    t.setDaemon(true);
    return t;
  });

  /**
   * What a reader got once git exited: all of it, unless a process git started lives on with the
   * pipe open (a daemonised hook) — then what came within a few seconds is not worth waiting for.
   */
  private static byte[] drained(CompletableFuture<byte[]> reader) throws IOException {
    try {
      return reader.get(5, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      reader.cancel(true);
      return new byte[0];
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof UncheckedIOException u ? u.getCause() : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading git's output", e);
    }
  }

  private static byte[] readAll(InputStream in) {
    try (in) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      in.transferTo(b);
      return b.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
