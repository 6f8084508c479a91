package dev.agentdesk.agents;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A temporary home and PATH with the stand-in agent CLIs ({@code claude}, {@code codex}, {@code aider}) from the
 * test resources, copied out and made executable (Maven's resource copy drops the mode bits).
 */
final class Standins {
  final Path home;
  final Path bin;

  Standins(Path tmp) throws IOException {
    home = Files.createDirectories(tmp.resolve("home"));
    bin = Files.createDirectories(tmp.resolve("bin"));
    for (String name : new String[] {"claude", "codex", "aider", "standin.py"}) {
      try (InputStream in = Standins.class.getResourceAsStream("/standins/" + name)) {
        Path p = bin.resolve(name);
        Files.copy(in, p);
        p.toFile().setExecutable(true);
      }
    }
  }

  /** HOME and PATH for agents and the transcript locator; the JVM's own home is never used. */
  Map<String, String> env() {
    return Map.of("HOME", home.toString(), "PATH", bin + ":/usr/bin:/bin", "CLAUDE_CONFIG_DIR", "", "CODEX_HOME", "");
  }

  AgentSessions.Config config(Path tmp) {
    return new AgentSessions.Config(tmp.resolve("data/agents.db"), tmp.resolve("worktrees"), env(),
        Duration.ofSeconds(30), Duration.ofMillis(100), TerminalHost.direct());
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    await(what, Duration.ofSeconds(20), condition);
  }

  static void await(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(50);
    }
  }
}
