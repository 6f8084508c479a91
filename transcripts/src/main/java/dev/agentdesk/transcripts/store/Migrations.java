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

/** Versioned schema: applies the dialect's scripts past the recorded version, each in its own transaction. */
final class Migrations {
  private Migrations() {}

  static int migrate(Connection c, SqlDialect dialect) throws SQLException {
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
      for (int v = current; v < scripts.size(); v++) {
        try (Statement s = c.createStatement()) {
          for (String stmt : statements(scripts.get(v))) {
            s.execute(stmt);
          }
          s.execute("INSERT INTO schema_migrations(version, applied_at) VALUES (" + (v + 1) + ", '"
              + Instant.now() + "')");
        }
        if (v + 1 == 2) {
          reindex(c);
        }
        c.commit();
      }
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(auto);
    }
    return scripts.size();
  }

  /**
   * Rebuilds the full-text index from the stored rows (version 2 changed how documents are named),
   * with the same rules {@link RecordWriter} indexes by, in rowid order.
   */
  private static void reindex(Connection c) throws SQLException {
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
