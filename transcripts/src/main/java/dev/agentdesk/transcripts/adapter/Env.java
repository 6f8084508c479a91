package dev.agentdesk.transcripts.adapter;

import java.nio.file.Path;
import java.util.Map;

/** Environment reads shared by the adapters' default folders. */
final class Env {
  private Env() {}

  /** {@code env[name]} as a folder when it is set to an absolute path (a relative one is ignored, as the agents do). */
  static Path dir(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      return null;
    }
    Path p = Path.of(v.strip());
    return p.isAbsolute() ? p : null;
  }

  /** {@code $XDG_DATA_HOME}, else {@code ~/.local/share} (the XDG base directory rule). */
  static Path xdgData(Map<String, String> env, Path home) {
    Path x = dir(env, "XDG_DATA_HOME");
    return x != null ? x : home.resolve(".local").resolve("share");
  }
}
