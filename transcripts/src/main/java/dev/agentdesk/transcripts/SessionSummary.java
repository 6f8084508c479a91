package dev.agentdesk.transcripts;

/** One row of the session list; {@code recordedCostUsd} is the agent's own figure of its cost, or null. */
public record SessionSummary(
    String id,
    String source,
    String title,
    String project,
    String cwd,
    String gitBranch,
    String startedAt,
    String endedAt,
    long messageCount,
    String parentSessionId,
    Double recordedCostUsd) {}
