package dev.agentdesk.agents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.agents.AgentException.Reason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * agents.db: one row per agent session (SQLite, WAL, beside history.db). A small table of its own
 * rather than a table in history.db, which the transcripts module migrates and may keep in
 * PostgreSQL; agent sessions are machine-local (they name local folders and processes).
 * Thread-safe: one connection, every call synchronized.
 */
final class AgentStore implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** 2: {@code transcript_earlier}, the files a session left for a newer one (TranscriptLink#earlier). */
  private static final int VERSION = 2;
  private static final String COLUMNS = "id, agent, name, repo, worktree, branch, base, base_commit, base_branch,"
      + " in_place, argv, extra_args, launch_id, terminal_id, transcript_provider, transcript_session_id,"
      + " transcript_path, transcript_status, lifecycle, made_folders, created_at, last_activity_at, spawned_at,"
      + " transcript_earlier";

  private final Connection c;

  private AgentStore(Connection c) {
    this.c = c;
  }

  static AgentStore open(Path file) {
    try {
      // agents.db names repositories, branches and prompts: owner-only, as the history is.
      dev.agentdesk.transcripts.store.SqliteFiles.prepare(file);
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA journal_mode=WAL");
        s.execute("PRAGMA busy_timeout=10000");
        int v;
        try (ResultSet rs = s.executeQuery("PRAGMA user_version")) {
          v = rs.next() ? rs.getInt(1) : 0;
        }
        if (v > VERSION) {
          c.close();
          throw new AgentException(Reason.STORE_FAILURE, file + " was written by a newer agentdesk (version " + v + ")");
        }
        if (v < 1) {
          s.execute("CREATE TABLE IF NOT EXISTS agent_sessions (id TEXT PRIMARY KEY, agent TEXT NOT NULL,"
              + " name TEXT NOT NULL, repo TEXT NOT NULL, worktree TEXT NOT NULL, branch TEXT, base TEXT NOT NULL,"
              + " base_commit TEXT NOT NULL, base_branch TEXT, in_place INTEGER NOT NULL, argv TEXT NOT NULL,"
              + " extra_args TEXT NOT NULL, launch_id TEXT, terminal_id TEXT, transcript_provider TEXT,"
              + " transcript_session_id TEXT, transcript_path TEXT, transcript_status TEXT NOT NULL,"
              + " lifecycle TEXT NOT NULL, made_folders TEXT NOT NULL, created_at TEXT NOT NULL,"
              + " last_activity_at TEXT NOT NULL, spawned_at TEXT NOT NULL)");
        }
        if (v < 2) {
          s.execute("ALTER TABLE agent_sessions ADD COLUMN transcript_earlier TEXT");
          s.execute("PRAGMA user_version=" + VERSION);
        }
      }
      return new AgentStore(c);
    } catch (SQLException | java.io.UncheckedIOException e) {
      throw new AgentException(Reason.STORE_FAILURE, "cannot open " + file + ": " + e.getMessage(), e);
    }
  }

  synchronized void put(SessionRow r) {
    String sql = "INSERT OR REPLACE INTO agent_sessions (" + COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    try (PreparedStatement p = c.prepareStatement(sql)) {
      int i = 1;
      p.setString(i++, r.id());
      p.setString(i++, r.agent().cliName());
      p.setString(i++, r.name());
      p.setString(i++, r.repo().toString());
      p.setString(i++, r.worktree().toString());
      p.setString(i++, r.branch());
      p.setString(i++, r.base());
      p.setString(i++, r.baseCommit());
      p.setString(i++, r.baseBranch());
      p.setInt(i++, r.inPlace() ? 1 : 0);
      p.setString(i++, json(r.argv()));
      p.setString(i++, json(r.extraArgs()));
      p.setString(i++, r.launchId());
      p.setString(i++, r.terminalId());
      TranscriptLink t = r.transcript();
      p.setString(i++, t == null ? null : t.provider());
      p.setString(i++, t == null ? null : t.sessionId());
      p.setString(i++, t == null ? null : t.path().toString());
      p.setString(i++, r.transcriptStatus().code());
      p.setString(i++, r.lifecycle().code());
      p.setString(i++, json(r.madeFolders().stream().map(Path::toString).toList()));
      p.setString(i++, r.createdAt().toString());
      p.setString(i++, r.lastActivityAt().toString());
      p.setString(i++, r.spawnedAt().toString());
      p.setString(i, t == null || t.earlier().isEmpty() ? null : json(t.earlier().stream()
          .flatMap(e -> java.util.stream.Stream.of(e.sessionId(), e.path().toString())).toList()));
      p.executeUpdate();
    } catch (SQLException e) {
      throw failure("store session " + r.id(), e);
    }
  }

  synchronized Optional<SessionRow> get(String id) {
    List<SessionRow> rows = query("SELECT " + COLUMNS + " FROM agent_sessions WHERE id = ?", id);
    return rows.stream().findFirst();
  }

  synchronized List<SessionRow> all() {
    return query("SELECT " + COLUMNS + " FROM agent_sessions ORDER BY created_at, id", null);
  }

  synchronized void delete(String id) {
    try (PreparedStatement p = c.prepareStatement("DELETE FROM agent_sessions WHERE id = ?")) {
      p.setString(1, id);
      p.executeUpdate();
    } catch (SQLException e) {
      throw failure("delete session " + id, e);
    }
  }

  private List<SessionRow> query(String sql, String arg) {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      if (arg != null) {
        p.setString(1, arg);
      }
      List<SessionRow> out = new ArrayList<>();
      try (ResultSet rs = p.executeQuery()) {
        while (rs.next()) {
          out.add(row(rs));
        }
      }
      return out;
    } catch (SQLException e) {
      throw failure("read sessions", e);
    }
  }

  private static SessionRow row(ResultSet rs) throws SQLException {
    String tPath = rs.getString("transcript_path");
    TranscriptLink link = tPath == null ? null
        : new TranscriptLink(rs.getString("transcript_provider"), rs.getString("transcript_session_id"), Path.of(tPath),
            parts(rs.getString("transcript_earlier")));
    return new SessionRow(rs.getString("id"), AgentType.named(rs.getString("agent")), rs.getString("name"),
        Path.of(rs.getString("repo")), Path.of(rs.getString("worktree")), rs.getString("branch"), rs.getString("base"),
        rs.getString("base_commit"), rs.getString("base_branch"), rs.getInt("in_place") != 0,
        list(rs.getString("argv")), list(rs.getString("extra_args")), rs.getString("launch_id"),
        rs.getString("terminal_id"), link, TranscriptStatus.parse(rs.getString("transcript_status")),
        Lifecycle.parse(rs.getString("lifecycle")), list(rs.getString("made_folders")).stream().map(Path::of).toList(),
        Instant.parse(rs.getString("created_at")), Instant.parse(rs.getString("last_activity_at")),
        Instant.parse(rs.getString("spawned_at")));
  }

  /** {@code transcript_earlier}: a flat JSON list, session id then path for each earlier file. */
  private static List<TranscriptLink.Part> parts(String s) {
    if (s == null) {
      return List.of();
    }
    List<String> flat = list(s);
    List<TranscriptLink.Part> out = new ArrayList<>();
    for (int i = 0; i + 1 < flat.size(); i += 2) {
      out.add(new TranscriptLink.Part(flat.get(i), Path.of(flat.get(i + 1))));
    }
    return out;
  }

  private static String json(List<String> l) {
    try {
      return JSON.writeValueAsString(l);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> list(String s) {
    try {
      return JSON.readValue(s, new TypeReference<List<String>>() {});
    } catch (IOException e) {
      throw new AgentException(Reason.STORE_FAILURE, "a stored list is not JSON: " + s, e);
    }
  }

  private static AgentException failure(String what, SQLException e) {
    return new AgentException(Reason.STORE_FAILURE, "cannot " + what + ": " + e.getMessage(), e);
  }

  @Override
  public synchronized void close() {
    try {
      c.close();
    } catch (SQLException e) {
      // closing a broken connection: nothing left to save
    }
  }
}
