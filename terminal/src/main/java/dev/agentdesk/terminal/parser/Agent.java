package dev.agentdesk.terminal.parser;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The coding agent running in a session. It selects the chrome layout to cut and gates the
 * structural tokens ({@code intent:}, {@code suggest:}) that only instructed agents print.
 */
public enum Agent {
  CLAUDE,
  CODEX,
  AIDER,
  GEMINI,
  COPILOT,
  OPENCODE,
  /** pi (@mariozechner/pi-coding-agent). */
  PI,
  GOOSE,
  /** An unknown program: only the agent-independent detectors run. */
  NONE;

  /** The lower-case name used on the command line. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a command-line name such as {@code claude}; the message lists the accepted names. */
  public static Agent fromCliName(String name) {
    for (Agent a : values()) {
      if (a.cliName().equals(name.toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown agent '" + name + "' (expected one of "
        + Arrays.stream(values()).map(Agent::cliName).collect(Collectors.joining(", ")) + ")");
  }
}
