package dev.agentdesk.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;

/**
 * An {@code opencode.db} as OpenCode 1.2+ lays it out (session, message and part tables, WAL
 * journal), held open by this connection the way the running agent holds it: written rows sit in
 * the {@code -wal} file until a checkpoint, the main file unchanged.
 */
public final class OpenCodeDatabase implements AutoCloseable {

  private final Connection connection;

  private OpenCodeDatabase(Connection connection) {
    this.connection = connection;
  }

  /** Creates the database at {@code db} with one session in {@code directory}. */
  public static OpenCodeDatabase create(Path db, String session, String directory, String title) throws Exception {
    Files.createDirectories(db.getParent());
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
    createSchema(c);
    long t = Instant.now().toEpochMilli();
    try (PreparedStatement p = c.prepareStatement("INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?)")) {
      p.setString(1, session);
      p.setString(2, "proj_live");
      p.setString(3, null);
      p.setString(4, session.replace('_', '-'));
      p.setString(5, directory);
      p.setString(6, title);
      p.setString(7, "1.2.3");
      p.setLong(8, t);
      p.setLong(9, t);
      p.executeUpdate();
    }
    return new OpenCodeDatabase(c);
  }

  /** OpenCode 1.2+'s session, message and part tables, in WAL mode, on {@code c}. */
  public static void createSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("PRAGMA journal_mode=WAL");
      s.execute("CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT,"
          + " directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL,"
          + " time_updated INTEGER NOT NULL)");
      s.execute("CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,"
          + " time_updated INTEGER NOT NULL, data TEXT NOT NULL)");
      s.execute("CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,"
          + " time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)");
    }
  }

  /** The writer's connection: to hold a transaction open, as OpenCode does mid-write. */
  public Connection connection() {
    return connection;
  }

  /**
   * Adds a message {@code dtMs} after now; {@code tokens} is OpenCode's tokens object (see
   * {@link #tokens}) or null for a message without usage (a user's).
   */
  public void message(String id, String session, String role, long dtMs, String model, String tokens)
      throws SQLException {
    long t = Instant.now().toEpochMilli() + dtMs;
    String data = "{\"role\":\"" + role + "\",\"time\":{\"created\":" + t + "}"
        + (tokens == null ? "" : ",\"modelID\":\"" + model + "\",\"providerID\":\"openai\",\"tokens\":" + tokens) + "}";
    try (PreparedStatement p = connection.prepareStatement("INSERT INTO message VALUES (?,?,?,?,?)")) {
      p.setString(1, id);
      p.setString(2, session);
      p.setLong(3, t);
      p.setLong(4, t);
      p.setString(5, data);
      p.executeUpdate();
    }
  }

  /** Adds a part; {@code data} is the part's JSON object. */
  public void part(String id, String message, String session, String data) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement("INSERT INTO part VALUES (?,?,?,?,?,?)")) {
      p.setString(1, id);
      p.setString(2, message);
      p.setString(3, session);
      p.setLong(4, 1);
      p.setLong(5, System.currentTimeMillis());
      p.setString(6, data);
      p.executeUpdate();
    }
  }

  /** OpenCode's tokens object of a message. */
  public static String tokens(long in, long out) {
    return "{\"input\":" + in + ",\"output\":" + out + ",\"reasoning\":0,\"cache\":{\"read\":0,\"write\":0}}";
  }

  /** A text part's JSON. */
  public static String text(String t) {
    return "{\"type\":\"text\",\"text\":\"" + t + "\"}";
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
