package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The agent sessions of a running {@code agentdesk serve}, as {@code /api/agents…} answers. */
public interface AgentsPort {
  /** {@code GET /api/agents}: an array of Agent objects. */
  JsonNode list();

  /** {@code POST /api/agents} with this body (agent, repo, worktree, prompt, …): the new Agent. */
  JsonNode start(ObjectNode body);

  /** {@code GET /api/agents/{id}/diff}: base, files and patch. */
  JsonNode diff(String id);
}
