package dev.agentdesk.agents;

/** What {@link AgentSessions} tells its listeners. */
public sealed interface AgentEvent {
  /** A session was started or its stored or live state changed; {@code session} is the new value. */
  record Changed(AgentSession session) implements AgentEvent {}

  /** A session was discarded or forgotten. */
  record Removed(String id) implements AgentEvent {}
}
