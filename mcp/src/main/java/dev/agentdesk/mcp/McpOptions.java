package dev.agentdesk.mcp;

import java.util.Objects;

/**
 * How the server behaves.
 *
 * @param version the agentdesk version, sent as the server's version
 * @param allowControl whether tools that type, start or run something may be called
 * @param howToAllowControl what the person must do to allow control, quoted in the refusal
 *     (e.g. "start 'agentdesk mcp' with --allow-control")
 * @param notice a sentence added to the instructions, e.g. which tools cannot work now; empty for none
 */
public record McpOptions(String version, boolean allowControl, String howToAllowControl, String notice) {
  public McpOptions {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(howToAllowControl, "howToAllowControl");
    Objects.requireNonNull(notice, "notice");
  }
}
