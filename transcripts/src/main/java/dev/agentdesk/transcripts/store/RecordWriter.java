package dev.agentdesk.transcripts.store;

import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.SessionRecord;
import dev.agentdesk.transcripts.records.SubagentRecord;
import dev.agentdesk.transcripts.records.SummaryRecord;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.TurnDurationRecord;
import dev.agentdesk.transcripts.records.UsageLimitRecord;
import dev.agentdesk.transcripts.records.Visibility;
import dev.agentdesk.transcripts.records.WorkflowAgentRecord;
import dev.agentdesk.transcripts.records.WorkflowRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Serializes records into rows inside the caller's transaction. It has no transcript semantics:
 * each record is upserted by its identity, a delete-session record deletes, and a delta session
 * record is folded into the stored one with {@link SessionRecord#absorb} (in Java, not SQL).
 *
 * <p>Rows of {@code messages}, {@code tool_calls} and {@code tool_results} get their rowid from this
 * writer (the next free one) unless the row exists already, so that the full-text document of a
 * row can be named by its rowid (see {@link SearchDocs}) without reading anything back. Whether a
 * row exists is known without a lookup for a session that had no rows when the transaction began
 * (every file of a first import); other sessions look the identity up.
 */
final class RecordWriter implements AutoCloseable {
  /**
   * SQLite version 5, PostgreSQL version 3: what the agent itself recorded about a session (its
   * permission mode, and its own figure of the session's cost as {@link
   * dev.agentdesk.transcripts.records.RecordedCost#encode} text). Claude Code files are read again
   * from their start on the next import (their cursors go), because the same release stopped
   * counting Claude Code's API-error lines as model responses and shows prompts its queue absorbed;
   * a re-read restates every session it finds, and a session whose file is gone keeps its rows.
   */
  static final String SESSION_AGENT_FIGURES = """
      ALTER TABLE sessions ADD COLUMN permission_mode TEXT;
      ALTER TABLE sessions ADD COLUMN recorded_cost TEXT;
      DELETE FROM cursors WHERE provider = 'claude';
      """;

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
  private final PreparedStatement docBody;
  private final PreparedStatement docDelete;
  private final Map<SearchDocs, PreparedStatement> lookups = new EnumMap<>(SearchDocs.class);
  /** The next rowid to hand out, per document table. */
  private final Map<SearchDocs, long[]> nextRowid = new EnumMap<>(SearchDocs.class);
  /**
   * Rows written in this transaction, per session: kind and ref to rowid, and whether it was stored
   * before. Keyed by session first so that a deleted session's rows go in one step and no key
   * string is built per record.
   */
  private final Map<String, Written> written = new HashMap<>();
  /** The session of the previous record: records of one session come in runs. */
  private String lastSession;
  private Written lastWritten;
  /** Sessions that have no rows outside this transaction. */
  private final Set<String> freshSessions = new HashSet<>();
  /**
   * Documents of this transaction in id order ({@code [session id, body]}); a later body for the
   * same row replaces the earlier. FTS5 flushes its pending in-memory index whenever a rowid is not
   * larger than the previous one, so documents are inserted in ascending order, once, in
   * {@link #finish}.
   */
  private final TreeMap<Long, String[]> docs = new TreeMap<>();
  /** Documents indexed by an earlier transaction whose row was rewritten: removed before inserting. */
  private final Set<Long> staleDocs = new HashSet<>();
  private final SqlDialect dialect;
  private final List<PreparedStatement> all = new ArrayList<>();
  private final Packed.Out packed = new Packed.Out();
  private final UsageLedger ledger;
  private final UsageLimits limits = new UsageLimits();

  /** Where a row of a document table lives. */
  private record Slot(long rowid, boolean storedBefore) {}

  /** One session's rows written in this transaction, by kind and ref; {@code fresh}: it had no rows before. */
  private static final class Written {
    final Map<SearchDocs, Map<String, Slot>> byKind = new EnumMap<>(SearchDocs.class);
    final boolean fresh;

    Written(boolean fresh) {
      this.fresh = fresh;
    }
  }

  RecordWriter(Connection c, TranscriptStore store, SqlDialect dialect) throws SQLException {
    this.c = c;
    this.store = store;
    this.dialect = dialect;
    this.ledger = new UsageLedger(c, dialect);
    message = prep(upsert("messages", List.of("session_id", "uuid"), "rowid", "text", "has_usage", "fields"));
    call = prep(upsert("tool_calls", List.of("session_id", "id"), "rowid", "name", "input_json", "fields"));
    result = prep(upsert("tool_results", List.of("session_id", "tool_use_id"), "rowid", "content", "fields"));
    summary = prep(upsert("summaries", List.of("session_id", "id"), "ordinal", "text", "leaf_uuid"));
    subagent = prep(upsert("subagents", List.of("session_id", "agent_id"), "parent_tool_call_id", "type",
        "description", "duration_ms", "total_tokens", "agent_session_id"));
    workflow = prep(upsert("workflows", List.of("session_id", "run_id"), "parent_tool_call_id", "task_id", "status",
        "duration_ms", "total_tokens"));
    workflowAgent = prep(upsert("workflow_agents", List.of("session_id", "run_id", "agent_id"), "type",
        "description", "status", "duration_ms", "total_tokens"));
    turn = prep(upsert("turn_durations", List.of("session_id", "uuid"), "ordinal", "timestamp", "duration_ms"));
    docBody = c.prepareStatement(dialect.indexDocumentSql().get(0));
    docDelete = c.prepareStatement(dialect.indexDocumentSql().get(1));
    for (SearchDocs k : SearchDocs.values()) {
      lookups.put(k, c.prepareStatement("SELECT rowid FROM " + k.table + " WHERE session_id = ? AND " + k.refColumn
          + " = ?"));
      try (PreparedStatement p = c.prepareStatement("SELECT COALESCE(MAX(rowid), 0) + 1 FROM " + k.table);
          ResultSet rs = p.executeQuery()) {
        rs.next();
        nextRowid.put(k, new long[] {rs.getLong(1)});
      }
    }
  }

  private PreparedStatement prep(String sql) throws SQLException {
    PreparedStatement p = c.prepareStatement(sql);
    all.add(p);
    return p;
  }

  /**
   * Portable upsert: insert, or on a key conflict overwrite every other column. A {@code rowid}
   * column is inserted but never overwritten (a conflicting row keeps its rowid).
   */
  static String upsert(String table, List<String> key, String... cols) {
    List<String> names = new ArrayList<>(key);
    names.addAll(List.of(cols));
    StringBuilder sb = new StringBuilder("INSERT INTO ").append(table).append(" (").append(String.join(", ", names))
        .append(") VALUES (").append("?, ".repeat(names.size() - 1)).append("?) ON CONFLICT (")
        .append(String.join(", ", key)).append(") DO UPDATE SET ");
    boolean first = true;
    for (String col : cols) {
      if (col.equals("rowid")) {
        continue;
      }
      sb.append(first ? "" : ", ").append(col).append(" = excluded.").append(col);
      first = false;
    }
    return sb.toString();
  }

  /** Writes one source's records; {@code provider} (its id) is whose usage windows they report. */
  void write(List<TranscriptRecord> records, String provider) throws SQLException {
    for (TranscriptRecord r : records) {
      if (r instanceof DeleteSessionRecord d) {
        flush();
        deleteSession(d.sessionId());
      } else if (r instanceof SessionRecord s) {
        flush();
        Optional<SessionRecord> existing = store.readSession(c, s.id());
        if (existing.isEmpty()) {
          freshSessions.add(s.id());
        }
        writeSession(existing.isPresent() ? existing.get().absorb(s) : s);
      } else if (r instanceof MessageRecord m) {
        Slot slot = slot(SearchDocs.MESSAGE, m.sessionId(), m.uuid());
        set(message, m.sessionId(), m.uuid(), rowidParam(slot), m.text(), m.usage() == null ? 0L : 1L,
            PackedRows.messageFields(packed, m));
        ledger.message(m, slot.rowid(), slot.storedBefore());
        document(SearchDocs.MESSAGE, slot, m.sessionId(),
            SearchDocs.messageBody(m.visibility() == Visibility.VISIBLE, m.text()));
      } else if (r instanceof ToolCallRecord t) {
        Slot slot = slot(SearchDocs.TOOL_INPUT, t.sessionId(), t.id());
        set(call, t.sessionId(), t.id(), rowidParam(slot), t.name(), t.inputJson(),
            PackedRows.toolCallFields(packed, t));
        document(SearchDocs.TOOL_INPUT, slot, t.sessionId(), SearchDocs.toolInputBody(t.name(), t.inputJson()));
      } else if (r instanceof ToolResultRecord t) {
        Slot slot = slot(SearchDocs.TOOL_OUTPUT, t.sessionId(), t.toolUseId());
        set(result, t.sessionId(), t.toolUseId(), rowidParam(slot), t.content(), PackedRows.toolResultFields(packed, t));
        document(SearchDocs.TOOL_OUTPUT, slot, t.sessionId(), SearchDocs.toolOutputBody(t.content()));
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
      } else if (r instanceof UsageLimitRecord l) {
        limits.add(provider, l);
      }
    }
    flush();
  }

  /** The row of (session, ref) in a document table: where it is, or a fresh rowid for a new row. */
  private Slot slot(SearchDocs kind, String sessionId, String ref) throws SQLException {
    Written w = sessionId.equals(lastSession) ? lastWritten
        : written.computeIfAbsent(sessionId, id -> new Written(freshSessions.contains(id)));
    lastSession = sessionId;
    lastWritten = w;
    Map<String, Slot> seen = w.byKind.computeIfAbsent(kind, k -> new HashMap<>());
    Slot slot = seen.get(ref);
    if (slot != null) {
      return slot;
    }
    Long stored = w.fresh ? null : storedRowid(kind, sessionId, ref);
    slot = stored != null ? new Slot(stored, true) : new Slot(nextRowid.get(kind)[0]++, false);
    seen.put(ref, slot);
    return slot;
  }

  private Long storedRowid(SearchDocs kind, String sessionId, String ref) throws SQLException {
    PreparedStatement p = lookups.get(kind);
    p.setString(1, dialect.storableText(sessionId));
    p.setString(2, dialect.storableText(ref));
    try (ResultSet rs = p.executeQuery()) {
      return rs.next() ? rs.getLong(1) : null;
    }
  }

  /** A new row gets its rowid; an existing one is updated in place and keeps its rowid. */
  private Long rowidParam(Slot slot) {
    return dialect.upsertRowid(slot.rowid(), slot.storedBefore());
  }

  private void document(SearchDocs kind, Slot slot, String sessionId, String body) {
    long id = kind.docId(slot.rowid());
    if (slot.storedBefore()) {
      staleDocs.add(id);
    }
    if (body == null) {
      docs.remove(id);
    } else {
      docs.put(id, new String[] {sessionId, body});
    }
  }

  /** Writes what is still pending, the full-text documents included; call once, before commit. */
  void finish() throws SQLException {
    flush();
    ledger.finish();
    limits.finish(c, dialect);
    if (!staleDocs.isEmpty()) {
      for (Long id : staleDocs) {
        set(docDelete, id);
      }
      docDelete.executeBatch();
      staleDocs.clear();
    }
    if (!docs.isEmpty()) {
      for (Map.Entry<Long, String[]> d : docs.entrySet()) {
        set(docBody, d.getKey(), dialect.indexedBody(d.getValue()[1]));
      }
      docBody.executeBatch();
      docs.clear();
    }
  }

  void deleteSession(String sessionId) throws SQLException {
    // What this transaction wrote for the session goes with it; later records of it are new rows.
    docs.values().removeIf(d -> d[0].equals(sessionId));
    written.remove(sessionId);
    lastSession = null;
    lastWritten = null;
    freshSessions.add(sessionId);
    ledger.deleteSession(sessionId);
    try (PreparedStatement p = c.prepareStatement(dialect.deleteSessionDocumentsSql())) {
      for (int i = 1; i <= SearchDocs.values().length; i++) {
        p.setString(i, dialect.storableText(sessionId));
      }
      p.executeUpdate();
    }
    for (String table : SESSION_TABLES) {
      try (PreparedStatement p = c.prepareStatement("DELETE FROM " + table + " WHERE session_id = ?")) {
        p.setString(1, dialect.storableText(sessionId));
        p.executeUpdate();
      }
    }
    try (PreparedStatement p = c.prepareStatement("DELETE FROM sessions WHERE id = ?")) {
      p.setString(1, dialect.storableText(sessionId));
      p.executeUpdate();
    }
  }

  private void writeSession(SessionRecord s) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(upsert("sessions", List.of("id"), "source", "title", "title_rank",
        "first_prompt", "project", "cwd", "git_branch", "version", "started_at", "ended_at", "message_count",
        "count_mode", "source_file", "parent_session_id", "permission_mode", "recorded_cost"))) {
      set(p, s.id(), s.source(), s.title(), (long) s.titleRank(), s.firstPrompt(), s.project(), s.cwd(),
          s.gitBranch(), s.version(), s.startedAt(), s.endedAt(), s.messageCount(), s.countMode().name(),
          s.sourceFile(), s.parentSessionId(), s.permissionMode(),
          s.recordedCost() == null ? null : s.recordedCost().encode());
      p.executeBatch();
    }
  }

  private void set(PreparedStatement p, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      if (v == null) {
        p.setNull(i + 1, Types.VARCHAR);
      } else if (v instanceof Long l) {
        p.setLong(i + 1, l);
      } else if (v instanceof byte[] b) {
        p.setBytes(i + 1, b);
      } else {
        p.setString(i + 1, dialect.storableText(v.toString()));
      }
    }
    p.addBatch();
  }

  private void flush() throws SQLException {
    for (PreparedStatement p : all) {
      p.executeBatch();
    }
  }

  @Override
  public void close() throws SQLException {
    for (PreparedStatement p : all) {
      p.close();
    }
    docBody.close();
    docDelete.close();
    for (PreparedStatement p : lookups.values()) {
      p.close();
    }
  }
}
