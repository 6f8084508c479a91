package dev.agentdesk.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The pinned real agent CLIs that {@code scripts/setup-agents} installs (the versions are in
 * {@code agents/real-agents.versions}, one line per CLI) into
 * {@code $AGENTDESK_REAL_AGENTS/<agent>-<version>/node_modules/.bin/<agent>} (default cache
 * {@code ~/.cache/agentdesk/real-agents}). A test that needs one fails, naming the command that
 * installs it, when it is missing: the suite runs in CI, where {@code ./run-tests} installs them.
 */
public final class RealAgents {
  private RealAgents() {}

  /** One pinned CLI. */
  public record Pin(String agent, String npmPackage, String version, Path executable) {}

  /**
   * The pinned CLI {@code agent} ({@code claude}, …), installed.
   *
   * @throws AssertionError when the versions file has no such line or the CLI is not installed
   */
  public static Pin require(String agent) {
    Path root = SharedCorpus.repoRoot().orElseThrow(() -> new AssertionError("repository root not found"));
    Path versions = root.resolve("agents/real-agents.versions");
    List<String> lines;
    try {
      lines = Files.readAllLines(versions);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (String line : lines) {
      String[] f = line.strip().split("\\s+");
      if (f.length != 3 || f[0].startsWith("#") || !f[0].equals(agent)) {
        continue;
      }
      Path dir = cache().resolve(agent + "-" + f[2]);
      Path exe = dir.resolve("node_modules/.bin/" + agent);
      if (!Files.isExecutable(exe) || !Files.exists(dir.resolve(".installed"))) {
        throw new AssertionError("the real " + agent + " CLI (" + f[1] + "@" + f[2] + ") is not installed in " + dir
            + ": run scripts/setup-agents (./run-tests does)");
      }
      return new Pin(agent, f[1], f[2], exe);
    }
    throw new AssertionError(versions + " pins no '" + agent + "' CLI");
  }

  /** The cache folder: {@code $AGENTDESK_REAL_AGENTS}, else {@code ~/.cache/agentdesk/real-agents}. */
  public static Path cache() {
    String env = System.getenv("AGENTDESK_REAL_AGENTS");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("user.home"), ".cache", "agentdesk", "real-agents");
  }
}
