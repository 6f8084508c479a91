package dev.agentdesk.transcripts.assemble;

import dev.agentdesk.transcripts.records.CountMode;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.SessionRecord;
import dev.agentdesk.transcripts.records.SubagentRecord;
import dev.agentdesk.transcripts.records.SummaryRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.TurnDurationRecord;
import dev.agentdesk.transcripts.records.Visibility;
import dev.agentdesk.transcripts.records.WorkflowAgentRecord;
import dev.agentdesk.transcripts.records.WorkflowRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Restores canonical records from stored rows, so that assembly never sees table shapes. */
final class RowAdapter {
  private RowAdapter() {}

  static List<TranscriptRecord> toRecords(TableRows rows) {
    List<TranscriptRecord> out = new ArrayList<>();
    for (Map<String, Object> r : rows.rows("sessions")) {
      out.add(new SessionRecord(s(r, "id"), s(r, "source"), s(r, "title"), (int) l(r, "title_rank"),
          s(r, "first_prompt"), s(r, "project"), s(r, "cwd"), s(r, "git_branch"), s(r, "version"),
          s(r, "started_at"), s(r, "ended_at"), l(r, "message_count"), CountMode.valueOf(s(r, "count_mode")),
          s(r, "source_file"), s(r, "parent_session_id")));
    }
    for (Map<String, Object> r : rows.rows("messages")) {
      TokenUsage usage = l(r, "has_usage") == 0 ? null : new TokenUsage(l(r, "input_tokens"), l(r, "output_tokens"),
          l(r, "cache_read_tokens"), l(r, "cache_creation_tokens"));
      out.add(new MessageRecord(s(r, "session_id"), s(r, "uuid"), s(r, "parent_uuid"), l(r, "ordinal"),
          s(r, "timestamp"), s(r, "role"), s(r, "text"), s(r, "content_type"), l(r, "is_meta") != 0,
          Visibility.valueOf(s(r, "visibility")), s(r, "model"), l(r, "is_sidechain") != 0, s(r, "agent_id"),
          s(r, "response_id"), usage));
    }
    for (Map<String, Object> r : rows.rows("tool_calls")) {
      out.add(new ToolCallRecord(s(r, "session_id"), s(r, "id"), s(r, "message_uuid"), l(r, "ordinal"),
          s(r, "timestamp"), s(r, "name"), s(r, "presentation"), s(r, "input_json"), s(r, "file_path")));
    }
    for (Map<String, Object> r : rows.rows("tool_results")) {
      out.add(new ToolResultRecord(s(r, "session_id"), s(r, "tool_use_id"), l(r, "ordinal"), s(r, "timestamp"),
          s(r, "content"), l(r, "is_error") != 0));
    }
    for (Map<String, Object> r : rows.rows("summaries")) {
      out.add(new SummaryRecord(s(r, "session_id"), s(r, "id"), l(r, "ordinal"), s(r, "text"), s(r, "leaf_uuid")));
    }
    for (Map<String, Object> r : rows.rows("subagents")) {
      out.add(new SubagentRecord(s(r, "session_id"), s(r, "agent_id"), s(r, "parent_tool_call_id"), s(r, "type"),
          s(r, "description"), n(r, "duration_ms"), n(r, "total_tokens"), s(r, "agent_session_id")));
    }
    for (Map<String, Object> r : rows.rows("workflows")) {
      out.add(new WorkflowRecord(s(r, "session_id"), s(r, "run_id"), s(r, "parent_tool_call_id"), s(r, "task_id"),
          s(r, "status"), n(r, "duration_ms"), n(r, "total_tokens")));
    }
    for (Map<String, Object> r : rows.rows("workflow_agents")) {
      out.add(new WorkflowAgentRecord(s(r, "session_id"), s(r, "run_id"), s(r, "agent_id"), s(r, "type"),
          s(r, "description"), s(r, "status"), n(r, "duration_ms"), n(r, "total_tokens")));
    }
    for (Map<String, Object> r : rows.rows("turn_durations")) {
      out.add(new TurnDurationRecord(s(r, "session_id"), s(r, "uuid"), l(r, "ordinal"), s(r, "timestamp"),
          l(r, "duration_ms")));
    }
    return out;
  }

  private static String s(Map<String, Object> r, String c) {
    Object v = r.get(c);
    return v == null ? null : v.toString();
  }

  private static long l(Map<String, Object> r, String c) {
    Object v = r.get(c);
    return v == null ? 0 : ((Number) v).longValue();
  }

  private static Long n(Map<String, Object> r, String c) {
    Object v = r.get(c);
    return v == null ? null : ((Number) v).longValue();
  }
}
