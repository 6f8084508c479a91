package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LineProblem;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptException;
import dev.agentdesk.transcripts.records.DeleteSessionRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * OpenCode's SQLite database (1.2 and later), read without getting in the way of OpenCode writing
 * it: a read-only connection (never a write lock; in WAL mode readers and the writer do not block
 * each other), one short read transaction per session, a busy timeout rather than an error while
 * the writer checkpoints. Each session is one unit ({@code part} = its id). Its cursor holds the
 * session's row counts and newest {@code time_updated}: an unchanged session is not read again, a
 * changed one is restated whole (rows are updated in place as a response streams).
 */
final class OpenCodeDatabase {
  private OpenCodeDatabase() {}

  static Connection open(Path db) throws SQLException {
    SQLiteConfig cfg = new SQLiteConfig();
    cfg.setReadOnly(true);
    cfg.setBusyTimeout(5000);
    return DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath(), cfg.toProperties());
  }

  static List<SourceUnit> units(Path db) {
    try (Connection c = open(db); PreparedStatement p = c.prepareStatement("SELECT * FROM session ORDER BY id");
        ResultSet rs = p.executeQuery()) {
      List<SourceUnit> units = new ArrayList<>();
      boolean hasParent = hasColumn(rs.getMetaData(), "parent_id");
      while (rs.next()) {
        String id = rs.getString("id");
        units.add(new SourceUnit(Provider.OPENCODE, db, id, hasParent ? rs.getString("parent_id") : null, null, id));
      }
      return units;
    } catch (SQLException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot read the OpenCode database " + db + ": " + e.getMessage(), e);
    }
  }

  /**
   * The session {@code launch} started: the earliest top-level session (no parent: a sub-agent's
   * session is its own row) created since the launch, less the clock slack, whose folder is the
   * launch folder, and not claimed by another launch.
   */
  static java.util.Optional<String> launched(Path db, dev.agentdesk.transcripts.LiveTranscripts.Launch launch) {
    long notBefore = launch.spawnedAt().toEpochMilli() - dev.agentdesk.transcripts.LiveTranscripts.CLOCK_SLACK_MS;
    try (Connection c = open(db); PreparedStatement p = c.prepareStatement(
        "SELECT id, directory FROM session WHERE parent_id IS NULL AND time_created >= ? ORDER BY time_created, id")) {
      p.setLong(1, notBefore);
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          String id = rs.getString(1);
          String dir = rs.getString(2);
          if (dir != null && !launch.claimed().contains(id) && LiveLocate.real(Path.of(dir)).equals(launch.cwd())) {
            return java.util.Optional.of(id);
          }
        }
      }
      return java.util.Optional.empty();
    } catch (SQLException e) {
      return java.util.Optional.empty(); // not created yet, or mid-migration: the next poll looks again
    }
  }

  static ParseResult parse(SourceUnit unit, Cursor cursor) {
    Path db = unit.file();
    String id = unit.part();
    List<LineProblem> problems = new ArrayList<>();
    try (Connection c = open(db)) {
      c.setAutoCommit(false); // one read transaction: the signature and the rows are one snapshot
      try {
        String signature = signature(c, id);
        String key = JsonlScan.fileKey(db);
        SessionAccumulator empty = new SessionAccumulator();
        if (cursor != null && signature.equals(cursor.headHash())) {
          return new ParseResult(List.of(empty.toRecord(unit, false)), cursor, List.of(), Map.of(), 0, true);
        }
        JsonNode session = sessionObject(c, id);
        Map<String, OpenCodeSessions.Message> messages = new LinkedHashMap<>();
        long bytes = 0;
        try (PreparedStatement p = c.prepareStatement(
            "SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id")) {
          p.setString(1, id);
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              String data = rs.getString(2);
              bytes += data == null ? 0 : data.length();
              ObjectNode info = object(db, "message " + rs.getString(1), data, problems);
              if (info != null) {
                info.put("id", rs.getString(1));
                messages.put(rs.getString(1), new OpenCodeSessions.Message(info, new ArrayList<>()));
              }
            }
          }
        }
        try (PreparedStatement p = c.prepareStatement(
            "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id")) {
          p.setString(1, id);
          try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) {
              String data = rs.getString(3);
              bytes += data == null ? 0 : data.length();
              ObjectNode part = object(db, "part " + rs.getString(1), data, problems);
              OpenCodeSessions.Message m = messages.get(rs.getString(2));
              if (part != null && m != null) {
                part.put("id", rs.getString(1));
                m.parts().add(part);
              }
            }
          }
        }
        WholeFile.Parsed parsed = OpenCodeSessions.read(unit, session, new ArrayList<>(messages.values()));
        List<TranscriptRecord> records = new ArrayList<>(parsed.records().size() + 1);
        if (cursor != null) {
          records.add(new DeleteSessionRecord(unit.sessionId(), "session changed in the database"));
        }
        records.addAll(parsed.records());
        return new ParseResult(records, new Cursor(key, bytes, 0, signature, null), problems, parsed.ignored(),
            Math.max(1, bytes), true);
      } finally {
        c.rollback();
      }
    } catch (SQLException | IOException e) {
      throw new TranscriptException(TranscriptException.Reason.SOURCE_UNREADABLE,
          "cannot read session " + id + " of the OpenCode database " + db + ": " + e.getMessage(), e);
    }
  }

  /** What changes whenever a session's rows do: counts (a deleted row) and the newest update time. */
  private static String signature(Connection c, String id) throws SQLException {
    StringBuilder sb = new StringBuilder("db");
    for (String table : new String[] {"session", "message", "part"}) {
      String where = table.equals("session") ? "id" : "session_id";
      try (PreparedStatement p = c.prepareStatement(
          "SELECT count(*), max(time_updated) FROM " + table + " WHERE " + where + " = ?")) {
        p.setString(1, id);
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          sb.append(':').append(rs.getLong(1)).append('/').append(rs.getLong(2));
        }
      }
    }
    return sb.toString();
  }

  /** The session row as the object the JSON storage held (the fields the reader uses). */
  private static JsonNode sessionObject(Connection c, String id) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT * FROM session WHERE id = ?")) {
      p.setString(1, id);
      try (ResultSet rs = p.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        ResultSetMetaData md = rs.getMetaData();
        ObjectNode s = JsonlScan.MAPPER.createObjectNode();
        s.put("id", id);
        if (hasColumn(md, "title")) {
          s.put("title", rs.getString("title"));
        }
        if (hasColumn(md, "directory")) {
          s.put("directory", rs.getString("directory"));
        }
        if (hasColumn(md, "version")) {
          s.put("version", rs.getString("version"));
        }
        if (hasColumn(md, "parent_id")) {
          s.put("parentID", rs.getString("parent_id"));
        }
        return s;
      }
    }
  }

  private static ObjectNode object(Path db, String what, String data, List<LineProblem> problems) {
    if (data == null) {
      problems.add(new LineProblem(db + "#" + what, 0, "no data"));
      return null;
    }
    try {
      JsonNode n = Surrogates.repair(JsonlScan.MAPPER.readTree(data));
      if (n instanceof ObjectNode o) {
        return o;
      }
      problems.add(new LineProblem(db + "#" + what, 0, "data is not a JSON object"));
    } catch (IOException e) {
      problems.add(new LineProblem(db + "#" + what, 0, "invalid JSON in data: "
          + String.valueOf(e.getMessage()).lines().findFirst().orElse("unreadable")));
    }
    return null;
  }

  private static boolean hasColumn(ResultSetMetaData md, String name) throws SQLException {
    for (int i = 1; i <= md.getColumnCount(); i++) {
      if (md.getColumnName(i).equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }
}
