package dev.agentdesk.transcripts.store;

import dev.agentdesk.transcripts.TranscriptException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.Visibility;

/**
 * Versioned schema: applies the dialect's scripts past the recorded version, each in its own
 * transaction. {@link #reindex} and {@link #repack} are SQLite's history (its versions 2 and 3),
 * run through {@link SqlDialect#afterMigration}.
 */
final class Migrations {
  private Migrations() {}

  static int migrate(Connection c, SqlDialect dialect) throws SQLException {
    return migrate(c, dialect, dialect.migrations().size());
  }

  /** Migrates up to version {@code target} only (tests build older databases with it). */
  static int migrate(Connection c, SqlDialect dialect, int target) throws SQLException {
    dialect.beforeMigrations(c);
    int version;
    try {
      version = migrateLocked(c, dialect, target);
    } catch (SQLException | RuntimeException e) {
      try {
        dialect.afterMigrations(c);
      } catch (SQLException unlock) {
        e.addSuppressed(unlock);
      }
      throw e;
    }
    dialect.afterMigrations(c);
    return version;
  }

  private static int migrateLocked(Connection c, SqlDialect dialect, int target) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
    }
    int current = 0;
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(version) FROM schema_migrations")) {
      if (rs.next()) {
        current = rs.getInt(1);
      }
    }
    List<String> scripts = dialect.migrations();
    if (current > scripts.size()) {
      throw new TranscriptException(TranscriptException.Reason.SCHEMA_TOO_NEW, "the database is at schema version "
          + current + " but this agentdesk knows only up to " + scripts.size() + "; use a newer agentdesk");
    }
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      for (int v = current; v < target; v++) {
        try (Statement s = c.createStatement()) {
          for (String stmt : statements(scripts.get(v))) {
            s.execute(stmt);
          }
          s.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (" + (v + 1) + ", '"
              + Instant.now() + "')");
        }
        dialect.afterMigration(v + 1, c);
        c.commit();
      }
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(auto);
    }
    return Math.max(current, target);
  }

  /**
   * Rebuilds the full-text index from the stored rows (version 2 changed how documents are named),
   * with the same rules {@link RecordWriter} indexes by, in rowid order.
   */
  static void reindex(Connection c) throws SQLException {
    try (PreparedStatement ins = c.prepareStatement("INSERT INTO search_fts(rowid, body) VALUES (?, ?)");
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT rowid, visibility, text FROM messages ORDER BY rowid")) {
        while (rs.next()) {
          add(ins, SearchDocs.MESSAGE.docId(rs.getLong(1)),
              SearchDocs.messageBody("VISIBLE".equals(rs.getString(2)), rs.getString(3)));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT rowid, name, input_json FROM tool_calls ORDER BY rowid")) {
        while (rs.next()) {
          add(ins, SearchDocs.TOOL_INPUT.docId(rs.getLong(1)), SearchDocs.toolInputBody(rs.getString(2),
              rs.getString(3)));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT rowid, content FROM tool_results ORDER BY rowid")) {
        while (rs.next()) {
          add(ins, SearchDocs.TOOL_OUTPUT.docId(rs.getLong(1)), SearchDocs.toolOutputBody(rs.getString(2)));
        }
      }
    }
  }

  /**
   * Version 3: copies messages, tool calls and tool results into their packed tables (same rowids,
   * so the full-text index stays valid) and swaps the tables.
   */
  static void repack(Connection c) throws SQLException {
    Packed.Out out = new Packed.Out();
    try (Statement s = c.createStatement();
        PreparedStatement msg = c.prepareStatement("INSERT INTO messages_v3(rowid, session_id, uuid, text, has_usage,"
            + " fields) VALUES (?, ?, ?, ?, ?, ?)");
        PreparedStatement call = c.prepareStatement("INSERT INTO tool_calls_v3(rowid, session_id, id, name,"
            + " input_json, fields) VALUES (?, ?, ?, ?, ?, ?)");
        PreparedStatement result = c.prepareStatement("INSERT INTO tool_results_v3(rowid, session_id, tool_use_id,"
            + " content, fields) VALUES (?, ?, ?, ?, ?)")) {
      try (ResultSet rs = s.executeQuery("SELECT rowid, * FROM messages")) {
        while (rs.next()) {
          boolean usage = rs.getInt("has_usage") != 0;
          MessageRecord m = new MessageRecord(rs.getString("session_id"), rs.getString("uuid"),
              rs.getString("parent_uuid"), rs.getLong("ordinal"), rs.getString("timestamp"), rs.getString("role"),
              rs.getString("text"), rs.getString("content_type"), rs.getInt("is_meta") != 0,
              Visibility.valueOf(rs.getString("visibility")), rs.getString("model"), rs.getInt("is_sidechain") != 0,
              rs.getString("agent_id"), rs.getString("response_id"), usage ? new TokenUsage(
                  rs.getLong("input_tokens"), rs.getLong("output_tokens"), rs.getLong("cache_read_tokens"),
                  rs.getLong("cache_creation_tokens")) : null);
          msg.setLong(1, rs.getLong(1));
          msg.setString(2, m.sessionId());
          msg.setString(3, m.uuid());
          msg.setString(4, m.text());
          msg.setInt(5, usage ? 1 : 0);
          msg.setBytes(6, PackedRows.messageFields(out, m));
          msg.executeUpdate();
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT rowid, * FROM tool_calls")) {
        while (rs.next()) {
          ToolCallRecord t = new ToolCallRecord(rs.getString("session_id"), rs.getString("id"),
              rs.getString("message_uuid"), rs.getLong("ordinal"), rs.getString("timestamp"), rs.getString("name"),
              rs.getString("presentation"), rs.getString("input_json"), rs.getString("file_path"));
          call.setLong(1, rs.getLong(1));
          call.setString(2, t.sessionId());
          call.setString(3, t.id());
          call.setString(4, t.name());
          call.setString(5, t.inputJson());
          call.setBytes(6, PackedRows.toolCallFields(out, t));
          call.executeUpdate();
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT rowid, * FROM tool_results")) {
        while (rs.next()) {
          ToolResultRecord t = new ToolResultRecord(rs.getString("session_id"), rs.getString("tool_use_id"),
              rs.getLong("ordinal"), rs.getString("timestamp"), rs.getString("content"), rs.getInt("is_error") != 0);
          result.setLong(1, rs.getLong(1));
          result.setString(2, t.sessionId());
          result.setString(3, t.toolUseId());
          result.setString(4, t.content());
          result.setBytes(5, PackedRows.toolResultFields(out, t));
          result.executeUpdate();
        }
      }
      for (String table : List.of("messages", "tool_calls", "tool_results")) {
        s.execute("DROP TABLE " + table);
        s.execute("ALTER TABLE " + table + "_v3 RENAME TO " + table);
      }
      s.execute("CREATE INDEX messages_with_usage ON messages(has_usage) WHERE has_usage = 1");
    }
  }

  private static void add(PreparedStatement ins, long id, String body) throws SQLException {
    if (body != null) {
      ins.setLong(1, id);
      ins.setString(2, body);
      ins.executeUpdate();
    }
  }

  /** Splits a script into statements; trigger bodies (BEGIN ... END;) stay whole. */
  static List<String> statements(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean inBody = false;
    for (String line : script.split("\n")) {
      String t = line.strip();
      if (t.isEmpty()) {
        continue;
      }
      cur.append(line).append('\n');
      if (!inBody && t.endsWith(" BEGIN")) {
        inBody = true;
      } else if (inBody ? t.equals("END;") : t.endsWith(";")) {
        inBody = false;
        String stmt = cur.toString().strip();
        out.add(stmt.substring(0, stmt.length() - 1));
        cur.setLength(0);
      }
    }
    if (!cur.toString().isBlank()) {
      out.add(cur.toString().strip());
    }
    return out;
  }
}
