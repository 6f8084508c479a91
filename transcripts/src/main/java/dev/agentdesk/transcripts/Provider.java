package dev.agentdesk.transcripts;

import java.util.Locale;

/** The agents whose transcripts this module reads. */
public enum Provider {
  CLAUDE("claude"),
  CODEX("codex"),
  GEMINI("gemini"),
  COPILOT("copilot"),
  CURSOR("cursor"),
  OPENCODE("opencode"),
  PI("pi"),
  AIDER("aider");

  private final String id;

  Provider(String id) {
    this.id = id;
  }

  /** The lower-case name stored as a session's {@code source}. */
  public String id() {
    return id;
  }

  /** The provider named {@code name} (case-insensitive). */
  public static Provider parse(String name) {
    for (Provider p : values()) {
      if (p.id.equals(name.toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown provider '" + name + "' (expected one of "
        + java.util.Arrays.stream(values()).map(Provider::id).collect(java.util.stream.Collectors.joining(", ")) + ")");
  }
}
