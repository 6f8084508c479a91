package dev.agentdesk.app.serve.agents;

/**
 * What an agent session's transcript cost so far, in dollars rounded to a millionth.
 *
 * @param usd ours, at the history's prices; null while unknown or when a response's model has no price
 * @param agentUsd the agent's own figure, where it records one (the session's recorded cost: Claude Code's exit record, OpenCode's priced messages); else null
 */
public record AgentCost(Double usd, Double agentUsd) {
  /** Nothing known. */
  public static final AgentCost NONE = new AgentCost(null, null);
}
