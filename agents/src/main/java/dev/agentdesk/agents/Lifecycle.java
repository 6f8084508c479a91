package dev.agentdesk.agents;

import java.util.Locale;

/** The stored lifecycle of an agent session (survives a restart, unlike its live status). */
public enum Lifecycle {
  /** The agent process runs (or ran when the store was last written: see {@link AgentSessions}). */
  RUNNING,
  /** The process ended (exit, stop, or a restart of agentdesk); {@code resume} can relaunch it. */
  ENDED,
  /** The worktree folder was deleted behind agentdesk's back; only discard (or forget) is left. */
  WORKTREE_MISSING;

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  static Lifecycle parse(String s) {
    return valueOf(s.toUpperCase(Locale.ROOT));
  }
}
