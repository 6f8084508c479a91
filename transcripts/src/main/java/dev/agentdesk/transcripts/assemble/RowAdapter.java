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
    TableRows.Table t_sessions = rows.table("sessions");
    Map<String, Integer> c_sessions = t_sessions.index();
    for (Object[] r : t_sessions.rows()) {
      out.add(new SessionRecord(s(r, c_sessions, "id"), s(r, c_sessions, "source"), s(r, c_sessions, "title"), (int) l(r, c_sessions, "title_rank"),
          s(r, c_sessions, "first_prompt"), s(r, c_sessions, "project"), s(r, c_sessions, "cwd"), s(r, c_sessions, "git_branch"), s(r, c_sessions, "version"),
          s(r, c_sessions, "started_at"), s(r, c_sessions, "ended_at"), l(r, c_sessions, "message_count"), CountMode.valueOf(s(r, c_sessions, "count_mode")),
          s(r, c_sessions, "source_file"), s(r, c_sessions, "parent_session_id")));
    }
    TableRows.Table t_messages = rows.table("messages");
    Map<String, Integer> c_messages = t_messages.index();
    for (Object[] r : t_messages.rows()) {
      TokenUsage usage = l(r, c_messages, "has_usage") == 0 ? null : new TokenUsage(l(r, c_messages, "input_tokens"), l(r, c_messages, "output_tokens"),
          l(r, c_messages, "cache_read_tokens"), l(r, c_messages, "cache_creation_tokens"));
      out.add(new MessageRecord(s(r, c_messages, "session_id"), s(r, c_messages, "uuid"), s(r, c_messages, "parent_uuid"), l(r, c_messages, "ordinal"),
          s(r, c_messages, "timestamp"), s(r, c_messages, "role"), s(r, c_messages, "text"), s(r, c_messages, "content_type"), l(r, c_messages, "is_meta") != 0,
          Visibility.valueOf(s(r, c_messages, "visibility")), s(r, c_messages, "model"), l(r, c_messages, "is_sidechain") != 0, s(r, c_messages, "agent_id"),
          s(r, c_messages, "response_id"), usage));
    }
    TableRows.Table t_tool_calls = rows.table("tool_calls");
    Map<String, Integer> c_tool_calls = t_tool_calls.index();
    for (Object[] r : t_tool_calls.rows()) {
      out.add(new ToolCallRecord(s(r, c_tool_calls, "session_id"), s(r, c_tool_calls, "id"), s(r, c_tool_calls, "message_uuid"), l(r, c_tool_calls, "ordinal"),
          s(r, c_tool_calls, "timestamp"), s(r, c_tool_calls, "name"), s(r, c_tool_calls, "presentation"), s(r, c_tool_calls, "input_json"), s(r, c_tool_calls, "file_path")));
    }
    TableRows.Table t_tool_results = rows.table("tool_results");
    Map<String, Integer> c_tool_results = t_tool_results.index();
    for (Object[] r : t_tool_results.rows()) {
      out.add(new ToolResultRecord(s(r, c_tool_results, "session_id"), s(r, c_tool_results, "tool_use_id"), l(r, c_tool_results, "ordinal"), s(r, c_tool_results, "timestamp"),
          s(r, c_tool_results, "content"), l(r, c_tool_results, "is_error") != 0));
    }
    TableRows.Table t_summaries = rows.table("summaries");
    Map<String, Integer> c_summaries = t_summaries.index();
    for (Object[] r : t_summaries.rows()) {
      out.add(new SummaryRecord(s(r, c_summaries, "session_id"), s(r, c_summaries, "id"), l(r, c_summaries, "ordinal"), s(r, c_summaries, "text"), s(r, c_summaries, "leaf_uuid")));
    }
    TableRows.Table t_subagents = rows.table("subagents");
    Map<String, Integer> c_subagents = t_subagents.index();
    for (Object[] r : t_subagents.rows()) {
      out.add(new SubagentRecord(s(r, c_subagents, "session_id"), s(r, c_subagents, "agent_id"), s(r, c_subagents, "parent_tool_call_id"), s(r, c_subagents, "type"),
          s(r, c_subagents, "description"), n(r, c_subagents, "duration_ms"), n(r, c_subagents, "total_tokens"), s(r, c_subagents, "agent_session_id")));
    }
    TableRows.Table t_workflows = rows.table("workflows");
    Map<String, Integer> c_workflows = t_workflows.index();
    for (Object[] r : t_workflows.rows()) {
      out.add(new WorkflowRecord(s(r, c_workflows, "session_id"), s(r, c_workflows, "run_id"), s(r, c_workflows, "parent_tool_call_id"), s(r, c_workflows, "task_id"),
          s(r, c_workflows, "status"), n(r, c_workflows, "duration_ms"), n(r, c_workflows, "total_tokens")));
    }
    TableRows.Table t_workflow_agents = rows.table("workflow_agents");
    Map<String, Integer> c_workflow_agents = t_workflow_agents.index();
    for (Object[] r : t_workflow_agents.rows()) {
      out.add(new WorkflowAgentRecord(s(r, c_workflow_agents, "session_id"), s(r, c_workflow_agents, "run_id"), s(r, c_workflow_agents, "agent_id"), s(r, c_workflow_agents, "type"),
          s(r, c_workflow_agents, "description"), s(r, c_workflow_agents, "status"), n(r, c_workflow_agents, "duration_ms"), n(r, c_workflow_agents, "total_tokens")));
    }
    TableRows.Table t_turn_durations = rows.table("turn_durations");
    Map<String, Integer> c_turn_durations = t_turn_durations.index();
    for (Object[] r : t_turn_durations.rows()) {
      out.add(new TurnDurationRecord(s(r, c_turn_durations, "session_id"), s(r, c_turn_durations, "uuid"), l(r, c_turn_durations, "ordinal"), s(r, c_turn_durations, "timestamp"),
          l(r, c_turn_durations, "duration_ms")));
    }
    return out;
  }

  private static String s(Object[] r, Map<String, Integer> cols, String c) {
    Object v = r[cols.get(c)];
    return v == null ? null : v.toString();
  }

  private static long l(Object[] r, Map<String, Integer> cols, String c) {
    Object v = r[cols.get(c)];
    return v == null ? 0 : ((Number) v).longValue();
  }

  private static Long n(Object[] r, Map<String, Integer> cols, String c) {
    Object v = r[cols.get(c)];
    return v == null ? null : ((Number) v).longValue();
  }
}
