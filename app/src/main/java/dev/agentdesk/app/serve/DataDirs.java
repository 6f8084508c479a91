package dev.agentdesk.app.serve;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where agentdesk keeps its files, following the XDG base directory rules: {@code
 * $XDG_DATA_HOME/agentdesk}, else {@code ~/.local/share/agentdesk}.
 */
public final class DataDirs {
  private DataDirs() {}

  /** The data folder for the given environment and home directory. */
  public static Path dataDir(Map<String, String> env, Path home) {
    String xdg = env.get("XDG_DATA_HOME");
    // The spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg).resolve("agentdesk");
    }
    return home.resolve(".local").resolve("share").resolve("agentdesk");
  }

  /** The default history database inside {@link #dataDir}. */
  public static Path defaultDatabase(Map<String, String> env, Path home) {
    return dataDir(env, home).resolve("history.db");
  }

  /** $HOME when set (as shells and the agents themselves use it), else the JVM's user.home. */
  public static Path home() {
    String env = System.getenv("HOME");
    if (env != null && !env.isBlank() && Path.of(env).isAbsolute()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("user.home"));
  }
}
