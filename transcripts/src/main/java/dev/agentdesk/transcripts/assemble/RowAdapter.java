package dev.agentdesk.transcripts.assemble;

import dev.agentdesk.transcripts.records.CountMode;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.RecordedCost;
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

/**
 * Restores canonical records from stored rows, so that assembly never sees table shapes. Column
 * positions are looked up once per table, not once per value: a large session has hundreds of
 * thousands of values.
 */
final class RowAdapter {
  private RowAdapter() {}

  /** Column positions of one table. */
  private record Cols(Map<String, Integer> index) {
    int at(String name) {
      Integer i = index.get(name);
      if (i == null) {
        throw new IllegalArgumentException("stored rows lack the column " + name);
      }
      return i;
    }
  }

  static List<TranscriptRecord> toRecords(TableRows rows) {
    List<TranscriptRecord> out = new ArrayList<>();
    sessions(rows.table("sessions"), out);
    messages(rows.table("messages"), out);
    toolCalls(rows.table("tool_calls"), out);
    toolResults(rows.table("tool_results"), out);
    summaries(rows.table("summaries"), out);
    subagents(rows.table("subagents"), out);
    workflows(rows.table("workflows"), out);
    workflowAgents(rows.table("workflow_agents"), out);
    turnDurations(rows.table("turn_durations"), out);
    return out;
  }

  private static void sessions(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int id = c.at("id"), source = c.at("source"), title = c.at("title"), titleRank = c.at("title_rank"),
        firstPrompt = c.at("first_prompt"), project = c.at("project"), cwd = c.at("cwd"), branch = c.at("git_branch"),
        version = c.at("version"), started = c.at("started_at"), ended = c.at("ended_at"),
        count = c.at("message_count"), mode = c.at("count_mode"), file = c.at("source_file"),
        parent = c.at("parent_session_id"), permission = c.at("permission_mode"), cost = c.at("recorded_cost");
    for (Object[] r : t.rows()) {
      out.add(new SessionRecord(s(r, id), s(r, source), s(r, title), (int) l(r, titleRank), s(r, firstPrompt),
          s(r, project), s(r, cwd), s(r, branch), s(r, version), s(r, started), s(r, ended), l(r, count),
          CountMode.valueOf(s(r, mode)), s(r, file), s(r, parent), s(r, permission),
          RecordedCost.decode(s(r, cost))));
    }
  }

  private static void messages(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int session = c.at("session_id"), uuid = c.at("uuid"), parent = c.at("parent_uuid"), ordinal = c.at("ordinal"),
        timestamp = c.at("timestamp"), role = c.at("role"), text = c.at("text"), contentType = c.at("content_type"),
        isMeta = c.at("is_meta"), visibility = c.at("visibility"), model = c.at("model"),
        sidechain = c.at("is_sidechain"), agent = c.at("agent_id"), response = c.at("response_id"),
        hasUsage = c.at("has_usage"), input = c.at("input_tokens"), output = c.at("output_tokens"),
        cacheRead = c.at("cache_read_tokens"), cacheCreation = c.at("cache_creation_tokens"),
        cacheCreation1h = c.at("cache_creation_1h_tokens");
    for (Object[] r : t.rows()) {
      TokenUsage usage = l(r, hasUsage) == 0 ? null
          : new TokenUsage(l(r, input), l(r, output), l(r, cacheRead), l(r, cacheCreation), l(r, cacheCreation1h));
      out.add(new MessageRecord(s(r, session), s(r, uuid), s(r, parent), l(r, ordinal), s(r, timestamp), s(r, role),
          s(r, text), s(r, contentType), l(r, isMeta) != 0, visibility(s(r, visibility)), s(r, model),
          l(r, sidechain) != 0, s(r, agent), s(r, response), usage));
    }
  }

  private static void toolCalls(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int session = c.at("session_id"), id = c.at("id"), message = c.at("message_uuid"), ordinal = c.at("ordinal"),
        timestamp = c.at("timestamp"), name = c.at("name"), presentation = c.at("presentation"),
        input = c.at("input_json"), file = c.at("file_path");
    for (Object[] r : t.rows()) {
      out.add(new ToolCallRecord(s(r, session), s(r, id), s(r, message), l(r, ordinal), s(r, timestamp), s(r, name),
          s(r, presentation), s(r, input), s(r, file)));
    }
  }

  private static void toolResults(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int session = c.at("session_id"), id = c.at("tool_use_id"), ordinal = c.at("ordinal"),
        timestamp = c.at("timestamp"), content = c.at("content"), isError = c.at("is_error");
    for (Object[] r : t.rows()) {
      out.add(new ToolResultRecord(s(r, session), s(r, id), l(r, ordinal), s(r, timestamp), s(r, content),
          l(r, isError) != 0));
    }
  }

  private static void summaries(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int session = c.at("session_id"), id = c.at("id"), ordinal = c.at("ordinal"), text = c.at("text"),
        leaf = c.at("leaf_uuid");
    for (Object[] r : t.rows()) {
      out.add(new SummaryRecord(s(r, session), s(r, id), l(r, ordinal), s(r, text), s(r, leaf)));
    }
  }

  private static void subagents(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int session = c.at("session_id"), agent = c.at("agent_id"), parentCall = c.at("parent_tool_call_id"),
        type = c.at("type"), description = c.at("description"), duration = c.at("duration_ms"),
        tokens = c.at("total_tokens"), agentSession = c.at("agent_session_id");
    for (Object[] r : t.rows()) {
      out.add(new SubagentRecord(s(r, session), s(r, agent), s(r, parentCall), s(r, type), s(r, description),
          n(r, duration), n(r, tokens), s(r, agentSession)));
    }
  }

  private static void workflows(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int session = c.at("session_id"), run = c.at("run_id"), parentCall = c.at("parent_tool_call_id"),
        task = c.at("task_id"), status = c.at("status"), duration = c.at("duration_ms"), tokens = c.at("total_tokens");
    for (Object[] r : t.rows()) {
      out.add(new WorkflowRecord(s(r, session), s(r, run), s(r, parentCall), s(r, task), s(r, status),
          n(r, duration), n(r, tokens)));
    }
  }

  private static void workflowAgents(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int session = c.at("session_id"), run = c.at("run_id"), agent = c.at("agent_id"), type = c.at("type"),
        description = c.at("description"), status = c.at("status"), duration = c.at("duration_ms"),
        tokens = c.at("total_tokens");
    for (Object[] r : t.rows()) {
      out.add(new WorkflowAgentRecord(s(r, session), s(r, run), s(r, agent), s(r, type), s(r, description),
          s(r, status), n(r, duration), n(r, tokens)));
    }
  }

  private static void turnDurations(TableRows.Table t, List<TranscriptRecord> out) {
    if (t.rows().isEmpty()) {
      return;
    }
    Cols c = new Cols(t.index());
    int session = c.at("session_id"), uuid = c.at("uuid"), ordinal = c.at("ordinal"), timestamp = c.at("timestamp"),
        duration = c.at("duration_ms");
    for (Object[] r : t.rows()) {
      out.add(new TurnDurationRecord(s(r, session), s(r, uuid), l(r, ordinal), s(r, timestamp), l(r, duration)));
    }
  }

  /** The stored name of a visibility; the common name is compared first (no hashing per row). */
  private static Visibility visibility(String name) {
    return Visibility.VISIBLE.name().equals(name) ? Visibility.VISIBLE : Visibility.valueOf(name);
  }

  private static String s(Object[] r, int i) {
    Object v = r[i];
    return v == null ? null : v.toString();
  }

  private static long l(Object[] r, int i) {
    Object v = r[i];
    return v == null ? 0 : ((Number) v).longValue();
  }

  private static Long n(Object[] r, int i) {
    Object v = r[i];
    return v == null ? null : ((Number) v).longValue();
  }
}
