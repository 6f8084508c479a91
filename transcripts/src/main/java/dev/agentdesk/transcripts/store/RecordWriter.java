package dev.agentdesk.transcripts.store;

import dev.agentdesk.transcripts.records.DeleteSessionRecord;
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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Serializes records into rows inside the caller's transaction. It has no transcript semantics:
 * each record is upserted by its identity, a delete-session record deletes, and a delta session
 * record is folded into the stored one with {@link SessionRecord#absorb} (in Java, not SQL).
 */
final class RecordWriter implements AutoCloseable {
  static final List<String> SESSION_TABLES = List.of("messages", "tool_calls", "tool_results", "summaries",
      "subagents", "workflows", "workflow_agents", "turn_durations");

  private final Connection c;
  private final TranscriptStore store;
  private final PreparedStatement message;
  private final PreparedStatement call;
  private final PreparedStatement result;
  private final PreparedStatement summary;
  private final PreparedStatement subagent;
  private final PreparedStatement workflow;
  private final PreparedStatement workflowAgent;
  private final PreparedStatement turn;
  private final PreparedStatement doc;
  private final PreparedStatement docBody;
  private final PreparedStatement docDelete;
  /** Documents of this flush by id; a later body for the same document replaces the earlier. */
  private final Map<Long, String[]> docs = new LinkedHashMap<>();
  private final SqlDialect dialect;
  private final List<PreparedStatement> all = new ArrayList<>();

  RecordWriter(Connection c, TranscriptStore store, SqlDialect dialect) throws SQLException {
    this.c = c;
    this.store = store;
    this.dialect = dialect;
    message = prep(upsert("messages", List.of("session_id", "uuid"), "parent_uuid", "ordinal", "timestamp", "role",
        "text", "content_type", "is_meta", "visibility", "model", "is_sidechain", "agent_id", "response_id",
        "has_usage", "input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_tokens"));
    call = prep(upsert("tool_calls", List.of("session_id", "id"), "message_uuid", "ordinal", "timestamp", "name",
        "presentation", "input_json", "file_path"));
    result = prep(upsert("tool_results", List.of("session_id", "tool_use_id"), "ordinal", "timestamp", "content",
        "is_error"));
    summary = prep(upsert("summaries", List.of("session_id", "id"), "ordinal", "text", "leaf_uuid"));
    subagent = prep(upsert("subagents", List.of("session_id", "agent_id"), "parent_tool_call_id", "type",
        "description", "duration_ms", "total_tokens", "agent_session_id"));
    workflow = prep(upsert("workflows", List.of("session_id", "run_id"), "parent_tool_call_id", "task_id", "status",
        "duration_ms", "total_tokens"));
    workflowAgent = prep(upsert("workflow_agents", List.of("session_id", "run_id", "agent_id"), "type",
        "description", "status", "duration_ms", "total_tokens"));
    turn = prep(upsert("turn_durations", List.of("session_id", "uuid"), "ordinal", "timestamp", "duration_ms"));
    doc = c.prepareStatement(dialect.indexDocumentSql().get(0));
    docBody = c.prepareStatement(dialect.indexDocumentSql().get(1));
    docDelete = c.prepareStatement(dialect.indexDocumentSql().get(2));
  }

  private PreparedStatement prep(String sql) throws SQLException {
    PreparedStatement p = c.prepareStatement(sql);
    all.add(p);
    return p;
  }

  /** Portable upsert: insert, or on a key conflict overwrite every other column. */
  static String upsert(String table, List<String> key, String... cols) {
    List<String> names = new ArrayList<>(key);
    names.addAll(List.of(cols));
    StringBuilder sb = new StringBuilder("INSERT INTO ").append(table).append(" (").append(String.join(", ", names))
        .append(") VALUES (").append("?, ".repeat(names.size() - 1)).append("?) ON CONFLICT (")
        .append(String.join(", ", key)).append(") DO UPDATE SET ");
    for (int i = 0; i < cols.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(cols[i]).append(" = excluded.").append(cols[i]);
    }
    return sb.toString();
  }

  void write(List<TranscriptRecord> records) throws SQLException {
    for (TranscriptRecord r : records) {
      if (r instanceof DeleteSessionRecord d) {
        flush();
        deleteSession(d.sessionId());
      } else if (r instanceof SessionRecord s) {
        flush();
        Optional<SessionRecord> existing = store.readSession(c, s.id());
        writeSession(existing.isPresent() ? existing.get().absorb(s) : s);
      } else if (r instanceof MessageRecord m) {
        TokenUsage u = m.usage();
        set(message, m.sessionId(), m.uuid(), m.parentUuid(), m.ordinal(), m.timestamp(), m.role(), m.text(),
            m.contentType(), m.isMeta() ? 1L : 0L, m.visibility().name(), m.model(), m.isSidechain() ? 1L : 0L,
            m.agentId(), m.responseId(), u == null ? 0L : 1L, u == null ? 0L : u.input(), u == null ? 0L : u.output(),
            u == null ? 0L : u.cacheRead(), u == null ? 0L : u.cacheCreation());
        if (m.visibility() == Visibility.VISIBLE && m.text() != null && !m.text().isBlank()) {
          index(m.sessionId(), "message", m.uuid(), m.text());
        }
      } else if (r instanceof ToolCallRecord t) {
        set(call, t.sessionId(), t.id(), t.messageUuid(), t.ordinal(), t.timestamp(), t.name(), t.presentation(),
            t.inputJson(), t.filePath());
        String body = (t.name() == null ? "" : t.name() + " ") + (t.inputJson() == null ? "" : t.inputJson());
        if (!body.isBlank()) {
          index(t.sessionId(), "tool_input", t.id(), body);
        }
      } else if (r instanceof ToolResultRecord t) {
        set(result, t.sessionId(), t.toolUseId(), t.ordinal(), t.timestamp(), t.content(), t.isError() ? 1L : 0L);
        if (t.content() != null && !t.content().isBlank()) {
          index(t.sessionId(), "tool_output", t.toolUseId(), t.content());
        }
      } else if (r instanceof SummaryRecord s) {
        set(summary, s.sessionId(), s.id(), s.ordinal(), s.text(), s.leafUuid());
      } else if (r instanceof SubagentRecord s) {
        set(subagent, s.sessionId(), s.agentId(), s.parentToolCallId(), s.type(), s.description(), s.durationMs(),
            s.totalTokens(), s.agentSessionId());
      } else if (r instanceof WorkflowRecord w) {
        set(workflow, w.sessionId(), w.runId(), w.parentToolCallId(), w.taskId(), w.status(), w.durationMs(),
            w.totalTokens());
      } else if (r instanceof WorkflowAgentRecord a) {
        set(workflowAgent, a.sessionId(), a.runId(), a.agentId(), a.type(), a.description(), a.status(),
            a.durationMs(), a.totalTokens());
      } else if (r instanceof TurnDurationRecord t) {
        set(turn, t.sessionId(), t.uuid(), t.ordinal(), t.timestamp(), t.durationMs());
      }
    }
    flush();
  }

  private void index(String sessionId, String kind, String ref, String body) throws SQLException {
    docs.put(docId(sessionId, kind, ref), new String[] {sessionId, kind, ref, body});
  }

  /**
   * Indexes this flush's documents. A new document is a plain insert; only a document that was
   * indexed before is deleted first (a blanket replace costs a lookup per row in the index).
   */
  private void flushDocs() throws SQLException {
    if (docs.isEmpty()) {
      return;
    }
    List<Long> ids = new ArrayList<>(docs.keySet());
    for (Long id : ids) {
      String[] d = docs.get(id);
      set(doc, id, d[0], d[1], d[2]);
    }
    int[] inserted = doc.executeBatch();
    boolean deletes = false;
    for (int i = 0; i < ids.size(); i++) {
      if (inserted[i] == 0) {
        set(docDelete, ids.get(i));
        deletes = true;
      }
    }
    if (deletes) {
      docDelete.executeBatch();
    }
    for (Long id : ids) {
      set(docBody, id, docs.get(id)[3]);
    }
    docBody.executeBatch();
    docs.clear();
  }

  /**
   * The full-text document id of (session, kind, ref): a 63-bit FNV-1a hash, so that re-indexing
   * the same document replaces it without a lookup. Two documents colliding (odds about 1e-7 at two
   * million documents) would make one of them unsearchable, nothing worse.
   */
  static long docId(String sessionId, String kind, String ref) {
    long h = 0xcbf29ce484222325L;
    for (String part : new String[] {sessionId, kind, ref}) {
      for (int i = 0; i < part.length(); i++) {
        h ^= part.charAt(i);
        h *= 0x100000001b3L;
      }
      h ^= 0xff;
      h *= 0x100000001b3L;
    }
    return h & Long.MAX_VALUE;
  }

  void deleteSession(String sessionId) throws SQLException {
    for (String sql : dialect.deleteSessionDocumentsSql()) {
      try (PreparedStatement p = c.prepareStatement(sql)) {
        p.setString(1, sessionId);
        p.executeUpdate();
      }
    }
    for (String table : SESSION_TABLES) {
      try (PreparedStatement p = c.prepareStatement("DELETE FROM " + table + " WHERE session_id = ?")) {
        p.setString(1, sessionId);
        p.executeUpdate();
      }
    }
    try (PreparedStatement p = c.prepareStatement("DELETE FROM sessions WHERE id = ?")) {
      p.setString(1, sessionId);
      p.executeUpdate();
    }
  }

  private void writeSession(SessionRecord s) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(upsert("sessions", List.of("id"), "source", "title", "title_rank",
        "first_prompt", "project", "cwd", "git_branch", "version", "started_at", "ended_at", "message_count",
        "count_mode", "source_file", "parent_session_id"))) {
      set(p, s.id(), s.source(), s.title(), (long) s.titleRank(), s.firstPrompt(), s.project(), s.cwd(),
          s.gitBranch(), s.version(), s.startedAt(), s.endedAt(), s.messageCount(), s.countMode().name(),
          s.sourceFile(), s.parentSessionId());
      p.executeBatch();
    }
  }

  private static void set(PreparedStatement p, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      if (v == null) {
        p.setNull(i + 1, Types.VARCHAR);
      } else if (v instanceof Long l) {
        p.setLong(i + 1, l);
      } else {
        p.setString(i + 1, v.toString());
      }
    }
    p.addBatch();
  }

  private void flush() throws SQLException {
    for (PreparedStatement p : all) {
      p.executeBatch();
    }
    flushDocs();
  }

  @Override
  public void close() throws SQLException {
    for (PreparedStatement p : all) {
      p.close();
    }
    doc.close();
    docBody.close();
    docDelete.close();
  }
}
