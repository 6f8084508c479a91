package dev.agentdesk.transcripts.assemble;

import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.util.List;

/**
 * The session detail: header plus entries. Built only by {@link SessionDetailAssembler}; rendered by
 * {@link DetailJson} (the documented JSON) and {@link DetailMarkdown}.
 */
public record SessionDetail(Header session, List<DetailEntry> entries) {
  public SessionDetail {
    entries = List.copyOf(entries);
  }

  /**
   * Session header. {@code usage} counts every response once. {@code permissionMode} and
   * {@code recordedCost} are what the agent itself last recorded (null when it records none).
   */
  public record Header(String id, String source, String title, String project, String cwd, String gitBranch,
      String version, String startedAt, String endedAt, long messageCount, String parentSessionId, String agentType,
      TokenUsage usage, String permissionMode, RecordedCost recordedCost) {}
}
