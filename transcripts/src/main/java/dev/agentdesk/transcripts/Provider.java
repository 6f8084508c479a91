package dev.agentdesk.transcripts;

import java.util.Locale;

/** The agents whose transcripts this module reads. */
public enum Provider {
  CLAUDE("claude", "Claude Code"),
  CODEX("codex", "Codex"),
  GEMINI("gemini", "Gemini CLI"),
  COPILOT("copilot", "Copilot CLI"),
  CURSOR("cursor", "Cursor"),
  OPENCODE("opencode", "OpenCode"),
  PI("pi", "pi"),
  AIDER("aider", "Aider");

  private final String id;
  private final String title;

  Provider(String id, String title) {
    this.id = id;
    this.title = title;
  }

  /** The agent's name as its makers write it ("Claude Code"), for help texts and pages. */
  public String title() {
    return title;
  }

  /** Every provider's {@link #id()}, joined as "claude, codex, … or aider", for messages and descriptions. */
  public static String idsOr() {
    java.util.List<String> ids = java.util.Arrays.stream(values()).map(Provider::id).toList();
    return String.join(", ", ids.subList(0, ids.size() - 1)) + " or " + ids.get(ids.size() - 1);
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
