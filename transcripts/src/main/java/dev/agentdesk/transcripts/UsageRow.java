package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.records.TokenUsage;

/** Token totals of one group; {@code responses} counts model responses, each once. */
public record UsageRow(String key, long responses, TokenUsage usage) {}
