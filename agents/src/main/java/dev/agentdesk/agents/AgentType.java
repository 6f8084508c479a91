package dev.agentdesk.agents;

import dev.agentdesk.terminal.parser.Agent;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The agents agentdesk knows how to launch, resume and link to a transcript, plus {@link #COMMAND}
 * for any other program. How each one is launched and resumed and where its transcript is found
 * is in {@code AgentRules} (documented in docs/agents.md).
 */
public enum AgentType {
  CLAUDE("claude", Agent.CLAUDE),
  CODEX("codex", Agent.CODEX),
  GEMINI("gemini", Agent.GEMINI),
  AIDER("aider", Agent.AIDER),
  OPENCODE("opencode", Agent.OPENCODE),
  COPILOT("copilot", Agent.COPILOT),
  PI("pi", Agent.PI),
  /** Any command: argv given by the caller, no resume, no transcript, parser agent detected from argv. */
  COMMAND("command", Agent.NONE);

  private final String cliName;
  private final Agent terminalAgent;

  AgentType(String cliName, Agent terminalAgent) {
    this.cliName = cliName;
    this.terminalAgent = terminalAgent;
  }

  /** The name on the command line and the wire ({@code claude}, …, {@code command}). */
  public String cliName() {
    return cliName;
  }

  /** The terminal parser's agent for this CLI's output ({@link Agent#NONE} for a command: detected from argv). */
  public Agent terminalAgent() {
    return terminalAgent;
  }

  /** The executable looked up on PATH when no explicit command is given; null for {@link #COMMAND}. */
  public String executable() {
    return this == COMMAND ? null : cliName;
  }

  /**
   * The type named {@code name} (case-insensitive).
   *
   * @throws AgentException {@link AgentException.Reason#UNKNOWN_AGENT} listing the known names
   */
  public static AgentType named(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (AgentType t : values()) {
      if (t.cliName.equals(n)) {
        return t;
      }
    }
    throw new AgentException(AgentException.Reason.UNKNOWN_AGENT, "unknown agent '" + name + "' (known: "
        + Arrays.stream(values()).map(AgentType::cliName).collect(Collectors.joining(", ")) + ")");
  }
}
