package dev.agentdesk.agents;

import java.util.Locale;

/** Where the search for a session's transcript stands. */
public enum TranscriptStatus {
  /** Not found yet; still looking (an agent may write its file only after the first prompt). */
  SEARCHING,
  /** Found and stored; see {@link AgentSession#transcript()}. */
  LINKED,
  /** Not found within the configured time. The search goes on, slower, while the agent runs. */
  NOT_FOUND,
  /** A custom command: agentdesk does not know where it writes a transcript. */
  UNSUPPORTED;

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  static TranscriptStatus parse(String s) {
    return valueOf(s.toUpperCase(Locale.ROOT));
  }
}
