package dev.agentdesk.transcripts.assemble;

/** One entry of session detail, in display order. */
public sealed interface DetailEntry
    permits DetailEntry.Message, DetailEntry.Thinking, DetailEntry.ToolCall, DetailEntry.Summary {

  /** A visible message (meta messages included, marked {@code isMeta}). */
  record Message(String uuid, String role, String timestamp, String text, String contentType, boolean isMeta,
      String model) implements DetailEntry {}

  /** Consecutive thinking blocks grouped; {@code text} is null when every block was encrypted or signature-only. */
  record Thinking(String uuid, String timestamp, String text, String model) implements DetailEntry {}

  /** A tool call with what was attached to it by id. */
  record ToolCall(String id, String name, String presentation, String timestamp, String filePath, String inputJson,
      Result result, Subagent subagent, Workflow workflow) implements DetailEntry {}

  /** A summary line. */
  record Summary(String id, String text, String leafUuid) implements DetailEntry {}

  /** A tool result. */
  record Result(String content, boolean isError) {}

  /**
   * The subagent a call spawned. {@code sessionId} names its own transcript session when it has one;
   * {@code entries} is its thread when that was written into the calling session's file instead
   * (empty otherwise).
   */
  record Subagent(String agentId, String type, String description, Long durationMs, Long totalTokens,
      String sessionId, java.util.List<DetailEntry> entries) {
    public Subagent {
      entries = entries == null ? java.util.List.of() : java.util.List.copyOf(entries);
    }

    /** A subagent with a transcript of its own (or none recorded). */
    public Subagent(String agentId, String type, String description, Long durationMs, Long totalTokens,
        String sessionId) {
      this(agentId, type, description, durationMs, totalTokens, sessionId, java.util.List.of());
    }
  }

  /** The workflow a call started. */
  record Workflow(String runId, String taskId, String status, Long durationMs, Long totalTokens,
      java.util.List<WorkflowAgent> agents) {}

  /** One agent of a workflow. */
  record WorkflowAgent(String agentId, String type, String description, String status, Long durationMs,
      Long totalTokens) {}
}
