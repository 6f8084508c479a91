package dev.agentdesk.reliability;

import dev.agentdesk.app.serve.TokenFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code agentdesk serve} as a real child process on a free loopback port, with its own home and
 * data folders, importing and tailing the given history folders. Its output goes to a log file
 * that failures quote.
 */
final class ServeChild implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("dashboard on http://[^:/]+:(\\d+)/");

  private final Process process;
  private final Path log;
  private final int port;
  private final Path home;

  private ServeChild(Process process, Path log, int port, Path home) {
    this.process = process;
    this.log = log;
    this.port = port;
    this.home = home;
  }

  /**
   * Starts the server; returns as soon as the process runs (the port is not known yet, see
   * {@link #awaitListening}), so a test can kill it during start-up too.
   */
  static Process launch(Path home, Path db, Path claude, Path codex, List<String> jvmOptions, Path log)
      throws IOException {
    Files.createDirectories(home);
    List<String> args = new ArrayList<>(List.of("serve", "--port", "0", "--db", db.toString(),
        "--claude", claude.toString(), "--codex", codex.toString()));
    return AgentdeskChild.start(jvmOptions, args,
        Map.of("HOME", home.toString(), "XDG_DATA_HOME", home.resolve("data").toString()), log);
  }

  /** Starts the server and waits until it listens. */
  static ServeChild start(Path home, Path db, Path claude, Path codex, List<String> jvmOptions, Path log)
      throws IOException, InterruptedException {
    Process p = launch(home, db, claude, codex, jvmOptions, log);
    return new ServeChild(p, log, awaitListening(p, log), home);
  }

  /** The port the server printed, once it printed it (60 s at most). */
  static int awaitListening(Process p, Path log) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      String out = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
      Matcher m = LISTENING.matcher(out);
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
      if (!p.isAlive()) {
        throw new AssertionError("agentdesk serve exited with " + p.exitValue() + ":\n" + out);
      }
      Thread.sleep(50);
    }
    p.destroyForcibly();
    throw new AssertionError("agentdesk serve did not listen within 60 s:\n" + Files.readString(log));
  }

  int port() {
    return port;
  }

  /** The server's token, read from the token file it keeps (XDG_DATA_HOME is home/data), as the CLI reads it. */
  String token() {
    return TokenFile.read(TokenFile.defaultPath(Map.of("XDG_DATA_HOME", home.resolve("data").toString()), home));
  }

  long pid() {
    return process.pid();
  }

  Process process() {
    return process;
  }

  String log() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** SIGTERM, as Ctrl-C would; SIGKILL if it has not stopped in 30 s. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      AgentdeskChild.kill9(process);
    }
  }
}
