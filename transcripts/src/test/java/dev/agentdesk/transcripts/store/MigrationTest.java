package dev.agentdesk.transcripts.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.TempSqlite;
import dev.agentdesk.testkit.TempSqliteExtension;
import dev.agentdesk.transcripts.ImportListener;
import dev.agentdesk.transcripts.ImportReport;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.SearchHit;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.TableRows;
import dev.agentdesk.transcripts.index.Importer;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Databases written by older versions open as the current version with nothing lost: an old
 * database is built at its version (its own schema scripts, its own row layout: one column per
 * field), filled with the rows of an import of the project's fixtures, then opened. Every session's
 * detail must equal the detail of a direct import byte for byte, search must find the same rows,
 * and re-importing the same files must change nothing.
 */
@ExtendWith(TempSqliteExtension.class)
class MigrationTest {
  private static final List<String> QUERIES = List.of("backoff configurable", "TestRefill", "rate limiter leak", "bucket");

  @ParameterizedTest(name = "from version {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void anOlderDatabaseOpensWithEveryDetailAndSearchHitIntact(int version, TempSqlite db, @TempDir Path dir)
      throws Exception {
    Path reference = dir.resolve("reference.db");
    Map<String, String> details = new LinkedHashMap<>();
    Map<String, List<String>> hits = new LinkedHashMap<>();
    List<String> sessions;
    Map<UsageGrouping, List<UsageRow>> usage = new LinkedHashMap<>();
    try (TranscriptHistory h = TranscriptHistory.open(reference)) {
      h.importFrom(roots(), ImportListener.NONE);
    }
    List<String> hourRows;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + reference)) {
      sessions = strings(c, "SELECT id FROM sessions ORDER BY id");
      hourRows = strings(c, HOUR_ROWS);
    }
    assertThat(hourRows).as("the import kept hour sums").isNotEmpty();
    assertThat(sessions).hasSizeGreaterThan(3);
    try (TranscriptHistory h = TranscriptHistory.open(reference)) {
      for (String id : sessions) {
        details.put(id, DetailJson.write(h.detail(id)));
      }
      for (UsageGrouping by : UsageGrouping.values()) {
        usage.put(by, h.usage(by));
      }
      for (String q : QUERIES) {
        hits.put(q, refs(h.search(q, 50)));
      }
    }
    assertThat(hits.values()).allSatisfy(refs -> assertThat(refs).isNotEmpty());

    writeOldDatabase(version, reference, sessions, db.file());

    try (TranscriptHistory h = TranscriptHistory.open(db.file())) {
      for (String id : sessions) {
        assertThat(DetailJson.write(h.detail(id))).as("detail of %s", id).isEqualTo(details.get(id));
      }
      for (String q : QUERIES) {
        assertThat(refs(h.search(q, 50))).as("hits of '%s'", q).isEqualTo(hits.get(q));
      }
      for (UsageGrouping by : UsageGrouping.values()) {
        assertThat(h.usage(by)).as("usage by %s (aggregates built by the migration)", by).isEqualTo(usage.get(by))
            .isNotEmpty();
      }
      // version 5 dropped the Claude Code cursors: those files are read again from their start once,
      // and restate what was stored
      try (Connection c = db.connect()) {
        assertThat(strings(c, "SELECT COUNT(*) FROM cursors WHERE provider = 'claude'"))
            .containsExactly(version < 5 ? "0" : "4");
        assertThat(strings(c, "SELECT COUNT(*) FROM cursors WHERE provider = 'codex'")).containsExactly("2");
      }
      ImportReport reread = h.importFrom(roots(), ImportListener.NONE);
      if (version < 5) {
        assertThat(reread.records()).isPositive();
      }
      for (String id : sessions) {
        assertThat(DetailJson.write(h.detail(id))).isEqualTo(details.get(id));
      }
      for (UsageGrouping by : UsageGrouping.values()) {
        assertThat(h.usage(by)).as("usage by %s after the re-read", by).isEqualTo(usage.get(by));
      }
      ImportReport again = h.importFrom(roots(), ImportListener.NONE);
      assertThat(again.records()).isZero();
    }
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO search_fts(search_fts, rank) VALUES ('integrity-check', 1)");
      assertThat(strings(c, "SELECT MAX(version) FROM schema_migrations")).containsExactly("9");
      assertThat(strings(c, HOUR_ROWS)).as("hour sums made by the migration, then kept by the re-reads")
          .isEqualTo(hourRows);
      assertThat(strings(c, "SELECT COUNT(*) FROM usage_candidates WHERE at_ms IS NULL")).containsExactly("0");
      assertThat(strings(c, "SELECT name FROM sqlite_master WHERE name LIKE '%\\_v3' ESCAPE '\\'")).isEmpty();
    }
  }

  /**
   * The database an older agentdesk would have written for the same import: its schema, one column
   * per field, and (from version 2) full-text documents named by rowid. A version-1 index is left
   * empty: version 2 drops it and rebuilds from the rows.
   */
  private static void writeOldDatabase(int version, Path reference, List<String> sessions, Path target)
      throws SQLException {
    if (version >= 3) {
      // Version 4 is today's row layout without the agent's figures of a session; version 3 is that
      // without the usage aggregates too: the reference less those.
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + reference); Statement s = c.createStatement()) {
        s.execute("VACUUM INTO '" + target + "'");
      }
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + target); Statement s = c.createStatement()) {
        // version 8 is today's with the candidates keyed by session and uuid, found by response key
        s.execute("CREATE TABLE old_candidates (session_id TEXT NOT NULL, uuid TEXT NOT NULL, response_key TEXT NOT NULL,"
            + " ordinal BIGINT NOT NULL, day TEXT NOT NULL, model TEXT NOT NULL, input_tokens BIGINT NOT NULL,"
            + " output_tokens BIGINT NOT NULL, cache_read_tokens BIGINT NOT NULL, cache_write_tokens BIGINT NOT NULL,"
            + " cache_write_1h_tokens BIGINT NOT NULL, winner INTEGER NOT NULL, at_ms BIGINT,"
            + " PRIMARY KEY (session_id, uuid))");
        s.execute("INSERT INTO old_candidates SELECT session_id, uuid, response_key, ordinal, day, model, input_tokens,"
            + " output_tokens, cache_read_tokens, cache_write_tokens, cache_write_1h_tokens, winner, at_ms"
            + " FROM usage_candidates");
        s.execute("DROP TABLE usage_candidates");
        s.execute("ALTER TABLE old_candidates RENAME TO usage_candidates");
        s.execute("CREATE INDEX usage_candidates_key ON usage_candidates(response_key)");
        s.execute("DELETE FROM schema_migrations WHERE version = 9");
        if (version <= 7) {
          // version 7 is that without the hour sums
          s.execute("DROP TABLE usage_hours");
          s.execute("DELETE FROM schema_migrations WHERE version = 8");
        }
        if (version <= 6) {
          // version 6 is that without the candidates' times
          s.execute("ALTER TABLE usage_candidates DROP COLUMN at_ms");
          s.execute("DELETE FROM schema_migrations WHERE version = 7");
        }
        if (version <= 5) {
          // version 5 is that without the usage limits
          s.execute("DROP TABLE usage_limits");
          s.execute("DELETE FROM schema_migrations WHERE version = 6");
        }
        if (version <= 4) {
          s.execute("ALTER TABLE sessions DROP COLUMN permission_mode");
          s.execute("ALTER TABLE sessions DROP COLUMN recorded_cost");
          s.execute("DELETE FROM schema_migrations WHERE version = 5");
        }
        if (version == 3) {
          s.execute("DROP TABLE usage_candidates");
          s.execute("DROP TABLE usage_totals");
          s.execute("DELETE FROM schema_migrations WHERE version = 4");
        }
      }
      return;
    }
    try (TranscriptStore ref = TranscriptStore.openSqlite(reference);
        Connection old = DriverManager.getConnection("jdbc:sqlite:" + target);
        Connection refConn = DriverManager.getConnection("jdbc:sqlite:" + reference)) {
      SqlDialect dialect = new SqliteDialect();
      dialect.configure(old);
      assertThat(Migrations.migrate(old, dialect, version)).isEqualTo(version);
      old.setAutoCommit(false);
      for (String id : sessions) {
        TableRows rows = ref.sessionRows(id).orElseThrow();
        for (Map.Entry<String, TableRows.Table> t : rows.tables().entrySet()) {
          insert(old, t.getKey(), t.getValue().columns(), t.getValue().rows());
        }
      }
      copyTable(refConn, old, "cursors");
      if (version >= 2) {
        indexByRowid(old);
      }
      old.commit();
    }
  }

  private static void indexByRowid(Connection old) throws SQLException {
    try (Statement s = old.createStatement();
        PreparedStatement ins = old.prepareStatement("INSERT INTO search_fts(rowid, body) VALUES (?, ?)")) {
      for (SearchDocs kind : SearchDocs.values()) {
        String visible = kind == SearchDocs.MESSAGE ? "visibility = 'VISIBLE'" : "1";
        try (ResultSet rs = s.executeQuery("SELECT rowid, " + visible + ", " + kind.bodySql + " FROM " + kind.table
            + " ORDER BY rowid")) {
          while (rs.next()) {
            String body = rs.getInt(2) == 1 && rs.getString(3) != null && !rs.getString(3).isBlank()
                ? rs.getString(3) : null;
            if (body != null) {
              ins.setLong(1, kind.docId(rs.getLong(1)));
              ins.setString(2, body);
              ins.executeUpdate();
            }
          }
        }
      }
    }
  }

  private static void insert(Connection c, String table, List<String> columns, List<Object[]> rows)
      throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    // columns newer than every old layout, each last in its table: left out
    for (String newer : List.of("cache_creation_1h_tokens", "permission_mode")) {
      int kept = columns.indexOf(newer);
      if (kept >= 0) {
        columns = columns.subList(0, kept);
      }
    }
    try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " (" + String.join(", ", columns)
        + ") VALUES (" + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")")) {
      for (Object[] row : rows) {
        for (int i = 0; i < columns.size(); i++) {
          p.setObject(i + 1, row[i]);
        }
        p.executeUpdate();
      }
    }
  }

  private static void copyTable(Connection from, Connection to, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    List<Object[]> rows = new ArrayList<>();
    try (Statement s = from.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        columns.add(md.getColumnName(i));
      }
      while (rs.next()) {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = rs.getObject(i + 1);
        }
        rows.add(row);
      }
    }
    insert(to, table, columns, rows);
  }

  private static List<String> refs(List<SearchHit> hits) {
    return hits.stream().map(h -> h.sessionId() + "/" + h.kind() + "/" + h.ref()).toList();
  }

  /** Every row of usage_hours as one string, in key order. */
  private static final String HOUR_ROWS = "SELECT session_id || '|' || hour || '|' || day || '|' || model || '|'"
      + " || bucket || '|' || responses || '|' || input_tokens || '|' || output_tokens || '|' || cache_read_tokens"
      + " || '|' || cache_write_tokens || '|' || cache_write_1h_tokens || '|' || IFNULL(first_ms, '-') || '|'"
      + " || IFNULL(last_ms, '-') FROM usage_hours ORDER BY session_id, hour, day, model, bucket";

  private static List<String> strings(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  private static List<Importer.Root> roots() throws URISyntaxException {
    Path fixtures = Path.of(MigrationTest.class.getResource("/fixtures").toURI());
    return List.of(new Importer.Root(Provider.CLAUDE, fixtures.resolve("claude/projects/-home-dev-demo")),
        new Importer.Root(Provider.CODEX, fixtures.resolve("codex/sessions/2026/01/06")));
  }
}
